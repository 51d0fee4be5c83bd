/**
 * A Redis Cluster of a test's own: three masters (`redis-server --cluster-enabled yes`) on
 * free ports, joined by `redis-cli --cluster create … --cluster-replicas 0`, in a temporary
 * folder removed afterwards. Debian's redis-server and redis-tools provide both programs.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { waitFor } from './profile-flow';
import { DedicatedRedis } from './redis-server';

const run = promisify(execFile);

export class DedicatedRedisCluster {
  private constructor(
    readonly nodes: DedicatedRedis[],
    private readonly folder: string,
  ) {}

  static async start(masters = 3): Promise<DedicatedRedisCluster> {
    const folder = mkdtempSync(path.join(tmpdir(), 'hi-redis-cluster-'));
    const nodes: DedicatedRedis[] = [];
    try {
      for (let i = 0; i < masters; i++) {
        nodes.push(
          await DedicatedRedis.start((port) => [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            path.join(folder, `nodes-${port}.conf`),
            '--cluster-node-timeout',
            '5000',
            '--dir',
            folder,
          ]),
        );
      }
      const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
      await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
      // Every node agrees the cluster is up and every slot is served.
      for (const node of nodes) {
        const client = new Redis(node.url, { maxRetriesPerRequest: 1 });
        client.on('error', () => undefined);
        try {
          await waitFor(async () => {
            const info = await client.cluster('INFO');
            return /cluster_state:ok/.test(info) && /cluster_slots_ok:16384/.test(info) && /cluster_known_nodes:(\d+)/.exec(info)?.[1] === String(masters);
          }, `cluster node ${node.port} to see the whole cluster`);
        } finally {
          client.disconnect();
        }
      }
      return new DedicatedRedisCluster(nodes, folder);
    } catch (error) {
      await Promise.all(nodes.map((node) => node.stop()));
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
  }

  /** REDIS_URL for the plugin: one seed node (REDIS_CLUSTER=true discovers the rest). */
  get url(): string {
    return this.nodes[0]!.url;
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop()));
    rmSync(this.folder, { recursive: true, force: true });
  }
}
