/**
 * The webhook benchmark's baseline, in a process of its own: a bare `fetch` POST loop
 * sending TOTAL copies of BODY (JSON) to URL, CONCURRENCY at a time, each answer read to its
 * end. Sends `ready` over IPC, starts on `{go: true}`, and answers `{seconds, cpuMs}`: the
 * wall-clock time of the loop and the CPU time (user + system, every thread of the process:
 * fetch's helper threads included) this process spent in it.
 */
export {}; // a module (its names stay its own)

const total = Number(process.env.TOTAL);
const concurrency = Number(process.env.CONCURRENCY);
const url = process.env.URL!;
const body = process.env.BODY!;

async function run(): Promise<void> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`the receiver answered ${response.status}`);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  process.send?.({ seconds, cpuMs: (used.user + used.system) / 1000 });
}

process.on('message', (message: { go?: boolean }) => {
  if (message.go) void run().catch((error) => (console.error(error), process.exit(1)));
});
process.send?.('ready');
