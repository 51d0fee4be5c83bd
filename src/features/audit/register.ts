/** The audit feature: the hash-chained audit trail, fed by the route layer (plugin.ts routerKit) and host hooks, read at /v1/audit_events. */
import type { PluginModule } from '../../platform/composition/plugin-module';
import { LOGGER, type Logger } from '../../kernel/logger';
import { CLOCK, type Clock } from '../../kernel/clock';
import { noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { AUDIT_REPOSITORY, type AuditRepository } from './domain/audit-event';
import { AUDIT_RETENTION, AuditRetention } from './domain/audit-retention';
import { AUDIT_WRITER, AuditWriter } from './domain/audit-writer';
import { auditRoutes } from './http/audit-router';
import { KnexAuditRepository } from './storage/audit-repository';

/** How often every process chains the pending events a dead process left, and how old they must be (the live writer's margin). */
const SWEEP_EVERY_MS = 30_000;
const SWEEP_AFTER_MS = 10_000;

export const auditModule: PluginModule = {
  name: 'audit',
  register(container, { config }) {
    container.registerSingleton(AUDIT_REPOSITORY, KnexAuditRepository);
    const repository = () => container.resolve<AuditRepository>(AUDIT_REPOSITORY);
    let writer: AuditWriter | undefined;
    container.register(AUDIT_WRITER, { useFactory: (c) => (writer ??= new AuditWriter(repository(), c.resolve<Logger>(LOGGER))) });
    container.register(AUDIT_RETENTION, { useFactory: () => new AuditRetention(repository(), config.auditRetentionDays) });
    registerCandidateData(
      container,
      noCandidateData('hi_audit_heads', 'The last hash of each audit chain, and where retention left it'),
      // Audit events name candidates only by id in a target path (reads of their record, exports,
      // erasures); the trail is the evidence of those acts and is kept, as GDPR Art. 17(3)(e) allows.
      noCandidateData('hi_audit_events', 'Who did what: actors are API keys, the operator or the host; a candidate appears only as a pseudonym in a path'),
      noCandidateData('hi_audit_pending', 'Audit events recorded and not yet chained (seconds): the same content as hi_audit_events'),
    );
  },
  routers: [{ name: 'audit-events', create: (container, kit) => kit.build('audit-events', auditRoutes(container.resolve<AuditRepository>(AUDIT_REPOSITORY))) }],
  /** Every process chains what a process that died recorded and left pending; on dispose, the batches being written finish. */
  async start(container, context) {
    const writer = container.resolve<AuditWriter>(AUDIT_WRITER);
    const clock = container.resolve<Clock>(CLOCK);
    const sweep = () =>
      void writer
        .sweep(new Date(clock.now().getTime() - SWEEP_AFTER_MS))
        .catch((error: Error) => context.logger.warn({ err: error.message }, 'audit sweep failed'));
    sweep();
    const timer = setInterval(sweep, SWEEP_EVERY_MS);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await writer.idle();
    };
  },
};
