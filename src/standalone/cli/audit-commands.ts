/** `audit list` and `audit verify`: the audit trail read from the database, and its hash chains checked row by row. */
import { UsageError } from './usage-error';
import type { AuditEvent } from '../../features/audit/domain/audit-event';
import { group, type CommandModule } from './context';

/* eslint-disable @typescript-eslint/no-require-imports */
/** Loaded when a command runs, not for --help: the view is the router's (express, zod). */
const audit = () => ({
  ...(require('../../features/audit/domain/audit-chain') as typeof import('../../features/audit/domain/audit-chain')),
  ...(require('../../features/audit/domain/audit-event') as typeof import('../../features/audit/domain/audit-event')),
  ...(require('../../features/audit/storage/audit-repository') as typeof import('../../features/audit/storage/audit-repository')),
  ...(require('../../features/audit/http/audit-router') as typeof import('../../features/audit/http/audit-router')),
});
/* eslint-enable @typescript-eslint/no-require-imports */

const line = (e: AuditEvent) => `${e.at.toISOString()}  #${e.sequence}  ${e.actorType}:${e.actor}  ${e.action}  ${e.method} ${e.target} → ${e.status}`;

export const auditCommands: CommandModule = {
  register(program, context) {
    const trail = group(program, 'audit', 'The audit trail: who changed what, hash-chained per organization');
    trail
      .command('list')
      .description('Audit events, newest first')
      .option('--org <id>', 'one organization (default: every chain)')
      .option('--action <operation>', 'one operation (an OpenAPI operationId, or hook:<name>)')
      .option('--limit <n>', 'at most this many (1-1000)', '50')
      .option('--json', 'print {"data":[…]}')
      .action(async (options: { org?: string; action?: string; limit: string; json?: boolean }) => {
        const limit = Number(options.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be an integer from 1 to 1000');
        const { KnexAuditRepository, auditEventView } = audit();
        await context.withDatabase(async (db) => {
          const page = await new KnexAuditRepository(db).list({ organizationId: options.org, action: options.action, limit });
          context.print(options, page.data.map(line).join('\n') || 'No audit events.', { data: page.data.map(auditEventView) });
        });
      });
    trail
      .command('verify')
      .description("Recomputes every chain's hashes: reports a changed, removed or inserted event (exit status 1)")
      .option('--org <id>', 'one organization (default: every chain)')
      .option('--json', 'print {"ok","chains","problems"}')
      .action(async (options: { org?: string; json?: boolean }) => {
        const { KnexAuditRepository, verifyChain, DEPLOYMENT_CHAIN } = audit();
        await context.withDatabase(async (db) => {
          const repository = new KnexAuditRepository(db);
          // Events recorded and not yet chained (a process died before its batch): chained first, so none is left out.
          for (const chain of await repository.pendingChains(new Date(Date.now() + 60_000))) while ((await repository.chainPending(chain, 500)) > 0);
          const chains = options.org ? [options.org] : await repository.chains();
          const problems = [];
          let events = 0;
          for (const chain of chains) {
            const rows = await repository.chain(chain);
            events += rows.length;
            problems.push(...verifyChain(rows, await repository.head(chain)).map((p) => ({ chain, ...p })));
          }
          const ok = problems.length === 0;
          const text = ok
            ? `Audit trail intact: ${events} events in ${chains.length} chain(s)${chains.includes(DEPLOYMENT_CHAIN) ? ' (with the deployment chain)' : ''}.`
            : `Audit trail TAMPERED: ${problems.map((p) => `${p.chain} #${p.sequence} (${p.id}) ${p.problem}`).join('; ')}`;
          context.print(options, text, { ok, chains: chains.length, events, problems });
          if (!ok) process.exitCode = 1;
        });
      });
  },
};
