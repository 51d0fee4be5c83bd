/**
 * Candidate exports (job_import.export_candidates): applications and candidates as CSV or HR
 * Open JSON, streamed, downloaded through the API or delivered to the organization's SFTP
 * connection on demand or on a schedule; every export an action run (docs/candidate-exports.md).
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { BULLMQ_QUEUES } from '../../composition/infrastructure';
import { CLOCK, type Clock } from '../../kernel/clock';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { ActionRunner } from '../action-runs/domain/action-runner';
import { RunRecordingConnectors } from '../action-runs/domain/run-recording-connectors';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { CandidateExportService, EXPORT_CANDIDATES } from './domain/candidate-export-service';
import { candidateExportRoutes } from './http/candidate-exports-router';
import { ExportScheduleProcessor, scheduleExportSweep } from './jobs/export-schedule-sweep';
import { KnexExportSchedules } from './storage/knex-export-schedules';
import { KnexExportSource } from './storage/knex-export-source';

export const candidateExportsModule: PluginModule = {
  name: 'candidate-exports',
  builtInActions: [EXPORT_CANDIDATES],
  register(container) {
    registerCandidateData(
      container,
      noCandidateData('hi_candidate_export_schedules', "Organizations' export schedules (format, cadence, filters, last delivery time)"),
    );
    container.register(CandidateExportService, {
      useFactory: instanceCachingFactory((c) => {
        const db = c.resolve<Database>(DATABASE);
        return new CandidateExportService({
          source: new KnexExportSource(db),
          entitlements: c.resolve<Entitlements>(ENTITLEMENTS),
          runner: c.resolve(ActionRunner),
          files: c.resolve(RunRecordingConnectors),
          schedules: new KnexExportSchedules(db),
          now: () => c.resolve<Clock>(CLOCK).now(),
        });
      }),
    });
    container.register(ExportScheduleProcessor, { useFactory: instanceCachingFactory((c) => new ExportScheduleProcessor(c.resolve(CandidateExportService))) });
  },
  routers: [
    { name: 'candidate-exports', create: (container, kit) => kit.build('candidate-exports', candidateExportRoutes(container.resolve(CandidateExportService))) },
  ],
  processors: (container: DependencyContainer) => [container.resolve(ExportScheduleProcessor)],
  async start(container, { logger }) {
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const stop = await scheduleExportSweep(container.resolve(ExportScheduleProcessor), bullmq, logger);
    return async () => stop();
  },
};
