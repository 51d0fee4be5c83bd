/** The audit feature: the hash-chained audit trail, fed by the route layer (plugin.ts routerKit) and host hooks, read at /v1/audit_events. */
import type { PluginModule } from '../../platform/composition/plugin-module';
import { noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { AUDIT_REPOSITORY, type AuditRepository } from './domain/audit-event';
import { auditRoutes } from './http/audit-router';
import { KnexAuditRepository } from './storage/audit-repository';

export const auditModule: PluginModule = {
  name: 'audit',
  register(container) {
    container.registerSingleton(AUDIT_REPOSITORY, KnexAuditRepository);
    registerCandidateData(
      container,
      noCandidateData('hi_audit_heads', 'The last hash of each audit chain'),
      // Audit events name candidates only by id in a target path (reads of their record, exports,
      // erasures); the trail is the evidence of those acts and is kept, as GDPR Art. 17(3)(e) allows.
      noCandidateData('hi_audit_events', 'Who did what: actors are API keys, the operator or the host; a candidate appears only as the id in a path'),
    );
  },
  routers: [{ name: 'audit-events', create: (container, kit) => kit.build('audit-events', auditRoutes(container.resolve<AuditRepository>(AUDIT_REPOSITORY))) }],
};
