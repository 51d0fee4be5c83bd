/** The budgets, from configuration. RATE_LIMIT_PER_MINUTE=0 turns every one of them off. */
import type { Config } from '../../kernel/config';
import type { RateLimitBudget } from './rate-limit';

export interface RateLimitBudgets {
  api: RateLimitBudget;
  public: RateLimitBudget;
  connect: RateLimitBudget;
  authFailures: RateLimitBudget;
}

export function rateLimitBudgets(config: Config): RateLimitBudgets {
  const on = config.rateLimitPerMinute > 0;
  const minute = (name: RateLimitBudget['name'], points: number): RateLimitBudget => ({ name, points: on ? points : 0, windowSeconds: 60 });
  return {
    api: minute('api', config.rateLimitPerMinute),
    public: minute('public', config.rateLimitPublicPerMinute),
    connect: minute('connect', config.rateLimitConnectPerMinute),
    authFailures: minute('auth_failures', config.rateLimitAuthFailuresPerMinute),
  };
}
