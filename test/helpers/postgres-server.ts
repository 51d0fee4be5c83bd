/**
 * A PostgreSQL server of a test's own: a fresh cluster (initdb) in a temporary folder, run
 * as the `postgres` user on a free loopback port, that the test can stop (an outage: an
 * immediate shutdown, connections cut) and start again on the same port. The shared
 * server on 5432 is never touched.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appendChildLog } from './log-capture';
import { freePort } from './processes';

function binDir(): string | undefined {
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    return versions.length > 0 ? path.join('/usr/lib/postgresql', versions[0]!, 'bin') : undefined;
  } catch {
    return undefined;
  }
}

function asPostgres(command: string, args: string[]): void {
  const result = spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' });
  appendChildLog(`${result.stdout ?? ''}${result.stderr ?? ''}`);
  if (result.status !== 0) throw new Error(`${path.basename(command)} failed (${result.status}): ${result.stderr || result.stdout}`);
}

export class DedicatedPostgres {
  private constructor(
    readonly port: number,
    private readonly folder: string,
    private readonly bin: string,
  ) {}

  /** Whether this machine can run one (PostgreSQL binaries, root to switch to `postgres`). */
  static available(): boolean {
    return binDir() !== undefined && process.getuid?.() === 0 && spawnSync('id', ['postgres']).status === 0;
  }

  static async start(): Promise<DedicatedPostgres> {
    const bin = binDir();
    if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
    const folder = mkdtempSync(path.join(tmpdir(), 'hi-pg-'));
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(folder, uid, gid);
    const server = new DedicatedPostgres(await freePort(), folder, bin);
    asPostgres(path.join(bin, 'initdb'), ['-D', server.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    await server.start();
    return server;
  }

  private get dataDir(): string {
    return path.join(this.folder, 'data');
  }

  /** The server's own `postgres` database; createTestDatabase makes one per file on it. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
    asPostgres(path.join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-l', path.join(this.folder, 'server.log'), '-o', options, '-w', 'start']);
  }

  /** An outage: immediate shutdown (no waiting for clients; their connections are cut). */
  async stop(): Promise<void> {
    asPostgres(path.join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    try {
      await this.stop();
    } catch {
      /* already stopped */
    }
    rmSync(this.folder, { recursive: true, force: true });
  }
}
