/** Job counts as the process that ran them reports them on GET /metrics. */
import type { TestHost } from './test-host';

export async function processedJobs(t: TestHost, queue: string, outcome: 'completed' | 'retry' | 'failed' = 'completed'): Promise<number> {
  const response = await t.request('GET', '/metrics', { auth: t.operatorKey });
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  for (const line of response.text.split('\n')) {
    if (!line.startsWith('hiring_integrations_jobs_processed_total{')) continue;
    if (line.includes(`queue="${queue}"`) && line.includes(`outcome="${outcome}"`)) return Number(line.split(' ').pop());
  }
  return 0;
}
