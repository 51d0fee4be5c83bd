/**
 * (4) Activation-to-active latency: POST /v1/integrations/licenses/{action_key}/activate
 * on the API process, then the license-provisioning job on a `hiring-integrations worker`
 * process, until the license's row says `active`. One activation at a time, each a new
 * (organization, action) pair; the clock stops when the bench sees the row change
 * (polled every 2 ms on its own connection).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/platform/manifest/manifest';
import { request } from '../test/helpers/test-host';
import { percentile } from './report';
import type { Product } from './product';

export interface ActivationResult {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export function catalogActionKeys(): string[] {
  const catalog = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'src/features/licensing/catalog.v1.json'), 'utf8')) as {
    groups: Array<{ actions: Array<{ key: string }> }>;
  };
  return catalog.groups.flatMap((g) => g.actions.map((a) => a.key));
}

export async function benchActivation(product: Product, options: { samples: number }): Promise<ActivationResult> {
  if (!product.worker) await product.startWorker();
  const keys = catalogActionKeys().filter((k) => k !== 'profile.accept_application');
  const orgs = product.organizations;
  if (options.samples > keys.length * orgs.length)
    throw new Error(`only ${keys.length * orgs.length} (organization, action) pairs for ${options.samples} samples`);
  const latencies: number[] = [];
  for (let i = 0; i < options.samples; i++) {
    const org = orgs[i % orgs.length]!;
    const actionKey = keys[Math.floor(i / orgs.length)]!;
    const started = performance.now();
    const response = await request(product.baseUrl, 'POST', `/v1/integrations/licenses/${encodeURIComponent(actionKey)}/activate`, { auth: org.apiKey });
    if (response.status >= 300) throw new Error(`activate ${actionKey} answered ${response.status}: ${response.text.slice(0, 300)}`);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const row = await product
        .db('hi_licenses')
        .where({ organization_id: org.organizationId, action_key: actionKey })
        .whereIn('status', ['active', 'failed'])
        .first();
      if (row?.status === 'active') break;
      if (row?.status === 'failed') throw new Error(`license for ${actionKey} failed: ${row.failure_reason}`);
      if (Date.now() > deadline) throw new Error(`license for ${actionKey} not active after 30 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return { samples: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies[latencies.length - 1]! };
}
