import { Counter, type Registry } from 'prom-client';
import type { RetentionRule } from '../domain/retention';
import type { RetentionMetrics } from '../domain/retention-sweep';

/** hiring_integrations_retention_total{rule, outcome}: erasures the retention pass started, and candidates a hold kept. */
export function prometheusRetentionMetrics(registry: Registry): RetentionMetrics {
  const counter = new Counter({
    name: 'hiring_integrations_retention_total',
    help: 'Candidates the daily retention pass found due, by rule (applications, unfinished_authorizations) and outcome (erasure_started, held, hired: kept because an application led to a hire)',
    labelNames: ['rule', 'outcome'],
    registers: [registry],
  });
  return { record: (rule: RetentionRule, outcome) => counter.inc({ rule, outcome }) };
}
