/** The billing rules as data: the catalog states them, docs/billing.md explains them. */
import { RETRY_SCHEDULE_DAYS } from './dunning';
import { QUOTE_TTL_SECONDS } from './quote';

export function billingRules(graceDays: number) {
  return {
    period: 'calendar_month_utc',
    billed: 'in_advance',
    proration: 'per_second',
    rounding: 'accrued price from the period start rounded half up to the cent; an interval costs the difference',
    platform_fee: 'once per period in which at least one à la carte action not covered by a held package is held; never prorated or credited',
    covered_actions: 'an à la carte action covered by a held package costs nothing extra',
    credits: 'unused time earns a credit on the next invoice; an invoice below zero is 0 and the rest is a credit balance; never refunded',
    prices: 'the price recorded when the license or subscription was taken',
    quote_ttl_seconds: QUOTE_TTL_SECONDS,
    grace_days: graceDays,
    retry_schedule_days: [...RETRY_SCHEDULE_DAYS],
  };
}
