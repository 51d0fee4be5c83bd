/**
 * The standalone host's operator endpoint for firing hooks, so that an ATS (or a
 * script) can drive the plugin's hook handlers over HTTP:
 *
 *   POST /host/v1/hooks/{hook_name}     Authorization: Bearer <OPERATOR_API_KEY>
 *   { "organization_id": "org_…", "payload": { … } }
 *
 * Answers 200 `{object:"hook_result", hook, organization_id, handled, skipped, failed,
 * outcomes:[{handler, action, status, reason?, result?}]}`. A handler skipped for want
 * of a license (or refusing its payload) is a normal answer, never an error; 404
 * `unknown_hook` when no handler is registered for the hook; 400 for a bad body.
 */
import { Router } from 'express';
import { z } from 'zod';
import { DomainError } from '../../kernel/errors';
import type { Logger } from '../../kernel/logger';
import type { PluginInstance } from '../../host/contract';
import { authenticate } from '../../platform/http/authenticate';
import { AuthenticationThrottle } from '../../platform/http/auth-throttle';
import { MemoryRateLimitStore, StoreHealth } from '../../platform/http/rate-limit';
import { rateLimitBudgets } from '../../platform/http/rate-limit-budgets';
import { jsonBody } from '../../platform/http/body';
import { OperatorApiKeyVerifier } from '../../platform/http/operator-api-key';
import { OrganizationApiKeyVerifier } from '../../features/organizations/http/organization-api-key';
import type { Database } from '../../platform/database/database';
import { operatorServices } from '../cli/operator-services';
import { errorHandler } from '../../platform/http/errors';
import { parseOrThrow, rejectNulCharacters } from '../../platform/http/validation';
import type { Config } from '../../kernel/config';

const HOOK_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

const body = z
  .object({
    organization_id: z.string().regex(/^org_[0-9A-Za-z]{1,64}$/, 'expected an organization id (org_…)'),
    payload: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export function hookEndpoint(host: { plugin: PluginInstance; config: Config; db: Database; logger: Logger }): Router {
  const router = Router();
  // Organization keys are verified too, so that one is told 403 operator_only, not 401.
  const verifiers = [
    new OperatorApiKeyVerifier(host.config.operatorApiKey),
    new OrganizationApiKeyVerifier(operatorServices(host.db, host.config).organizations),
  ];
  // The host's own failed-authentication budget (per process): key guessing is slowed here too.
  const failures = new MemoryRateLimitStore();
  const throttle = new AuthenticationThrottle(failures, rateLimitBudgets(host.config).authFailures, new StoreHealth(host.logger, failures));
  router.post('/host/v1/hooks/:hook_name', authenticate(['operator'], verifiers, throttle), ...jsonBody(host.config.bodyLimitBytes), async (req, res) => {
    rejectNulCharacters({ params: req.params, query: req.query, body: req.body });
    const hook = String(req.params.hook_name);
    if (!HOOK_NAME.test(hook))
      throw new DomainError('invalid', 'invalid_hook_name', 'Hook names are dotted lower-case words, e.g. interview.scheduled', { param: 'hook_name' });
    const input = parseOrThrow(body, req.body ?? {}, 'body');
    const known = [...new Set(host.plugin.hooks.map((h) => h.hook))].sort();
    if (!known.includes(hook)) {
      throw new DomainError('not_found', 'unknown_hook', `No handler is registered for the hook '${hook}'; registered hooks: ${known.join(', ')}`, {
        param: 'hook_name',
      });
    }
    const result = await host.plugin.fireHook(hook, input.organization_id, input.payload);
    res.status(200).json({ object: 'hook_result', hook, organization_id: input.organization_id, ...result });
  });
  router.use(errorHandler(host.logger));
  return router;
}
