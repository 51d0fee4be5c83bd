/**
 * GET /v1/compliance for 10,000 people (issue 25: "who is out of compliance per requirement,
 * for 10,000 people in under a second"). One organization holds
 * `background_checks.compliance_tracking`; 10,000 held credentials (one per person, three
 * requirements, expiries spread over a year either side of now) are inserted directly. Timed
 * on the API process: the whole list as CSV (streamed, every row), and one filtered JSON page
 * (expired credentials of one requirement), each several times; the median and the worst count.
 */
import { randomBytes } from 'node:crypto';
import { request } from '../test/helpers/test-host';
import type { Product } from './product';

export interface ComplianceBenchResult {
  people: number;
  csvMedianMs: number;
  csvMaxMs: number;
  csvRows: number;
  jsonMedianMs: number;
  jsonMaxMs: number;
}

const DAY = 86_400_000;
const REQUIREMENTS = ['rn_license', 'bls_certificate', 'tb_test'];

export async function benchCompliance(product: Product, options: { people: number; samples: number }): Promise<ComplianceBenchResult> {
  if (!product.worker) await product.startWorker();
  const org = product.organizations[0]!;
  const activated = await request(product.baseUrl, 'POST', '/v1/integrations/licenses/background_checks.compliance_tracking/activate', { auth: org.apiKey });
  if (activated.status >= 300) throw new Error(`activate answered ${activated.status}: ${activated.text.slice(0, 300)}`);
  for (const deadline = Date.now() + 30_000; ;) {
    const row = await product
      .db('hi_licenses')
      .where({ organization_id: org.organizationId, action_key: 'background_checks.compliance_tracking', status: 'active' })
      .first();
    if (row) break;
    if (Date.now() > deadline) throw new Error('the compliance_tracking license did not become active');
    await new Promise((r) => setTimeout(r, 20));
  }
  const now = Date.now();
  const rows = Array.from({ length: options.people }, (_, i) => ({
    id: `hcred_bench${i.toString().padStart(6, '0')}${randomBytes(4).toString('hex')}`,
    organization_id: org.organizationId,
    profile_user_id: `usr_bench${i}`,
    listing_id: org.listingIds[i % org.listingIds.length]!,
    requirement_key: REQUIREMENTS[i % REQUIREMENTS.length]!,
    credential_type: 'License',
    source: 'document_review',
    source_id: `cdoc_bench${i}`,
    expires_at: new Date(now + ((i % 730) - 365) * DAY),
    expiring_notices: '[]',
    expired_notice_at: null,
    created_at: new Date(now),
    updated_at: new Date(now),
  }));
  for (let i = 0; i < rows.length; i += 1000) await product.db('hi_held_credentials').insert(rows.slice(i, i + 1000));
  await product.db.raw('ANALYZE hi_held_credentials');

  const time = async (headers: Record<string, string>, path: string) => {
    const started = performance.now();
    const response = await request(product.baseUrl, 'GET', path, { auth: org.apiKey, headers });
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.text.slice(0, 300)}`);
    return { ms, text: response.text };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const csv: number[] = [];
  const json: number[] = [];
  let csvRows = 0;
  await time({ accept: 'text/csv' }, '/v1/compliance'); // warm-up (plans, caches)
  for (let i = 0; i < options.samples; i++) {
    const full = await time({ accept: 'text/csv' }, '/v1/compliance');
    csv.push(full.ms);
    csvRows = full.text.trim().split('\r\n').length - 1;
    json.push((await time({}, '/v1/compliance?requirement=rn_license&status=expired&limit=100')).ms);
  }
  return {
    people: options.people,
    csvMedianMs: median(csv),
    csvMaxMs: Math.max(...csv),
    csvRows,
    jsonMedianMs: median(json),
    jsonMaxMs: Math.max(...json),
  };
}
