/**
 * A redis-server of a test's own, on a free port, that the test can stop and start again
 * on the same port (to rehearse an outage without touching the shared Redis). Output goes
 * to the run's log.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { within } from './deadline';
import { appendChildLog } from './log-capture';
import { freePort } from './processes';

export class DedicatedRedis {
  private child: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    /** More redis-server arguments (a cluster node's). */
    private readonly extraArgs: readonly string[] = [],
  ) {}

  static async start(extraArgs: (port: number) => readonly string[] = () => []): Promise<DedicatedRedis> {
    const port = await freePort();
    const redis = new DedicatedRedis(port, extraArgs(port));
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', ...this.extraArgs],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    this.child = child;
    const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready`))));
    exited.catch(() => undefined);
    const ready = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        appendChildLog(text);
        if (text.includes('Ready to accept connections')) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', (chunk: Buffer) => appendChildLog(chunk.toString('utf8')));
    });
    await within(Promise.race([ready, exited]), 10_000, `redis-server on port ${this.port} to accept connections`);
    // Ready means it answers.
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined); // connect() and ping() reject with it
    try {
      await within(
        probe.connect().then(() => probe.ping()),
        5_000,
        `redis-server on port ${this.port} to answer PING`,
      );
    } finally {
      probe.disconnect();
    }
  }

  /** Kills the server (SIGKILL: an outage, not a shutdown) and waits for it to be gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }

  get running(): boolean {
    return Boolean(this.child && this.child.exitCode === null && this.child.signalCode === null);
  }
}
