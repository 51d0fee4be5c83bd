/**
 * The reminder benchmark's baseline, in a process of its own: a bare nodemailer pool (the
 * SMTP connector's 5 connections) sending TOTAL messages to SMTP_PORT on 127.0.0.1,
 * CONCURRENCY at a time; each is the reminder the product sends (MESSAGE: its subject, text
 * and HTML as the product renders them, JSON), so both sides build and send the same MIME.
 * ONE_WRITE=1 adds the SMTP connector's one-write step (not in `npm run bench`). Sends `ready` over IPC, starts on `{go: true}`, and
 * answers `{seconds, cpuMs}`: the wall-clock time of the loop and the CPU time (user +
 * system) this process spent in it.
 */
import { createTransport } from 'nodemailer';
import { sendInOneWrite } from '../../src/connectors/smtp/one-write-message';

const total = Number(process.env.TOTAL);
const concurrency = Number(process.env.CONCURRENCY);
const message = JSON.parse(process.env.MESSAGE!) as { subject: string; text: string; html: string };

async function run(): Promise<void> {
  const transport = createTransport({ host: '127.0.0.1', port: Number(process.env.SMTP_PORT), secure: false, ignoreTLS: true, pool: true, maxConnections: 5 });
  // ONE_WRITE=1: with the connector's one-write step, to see what the baseline itself would gain from it.
  if (process.env.ONE_WRITE === '1') sendInOneWrite(transport);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        await transport.sendMail({ from: 'jobs@bench.example', to: `ada+${next}@bench.example`, ...message });
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  transport.close();
  process.send?.({ seconds, cpuMs: (used.user + used.system) / 1000 });
}

process.on('message', (message: { go?: boolean }) => {
  if (message.go) void run().catch((error) => (console.error(error), process.exit(1)));
});
process.send?.('ready');
