/**
 * payroll.payroll_sync: each hire leaves for payroll as a new-hire CSV file on the
 * organization's file drop (SFTP). The idempotency key is the hire's, so a hook fired
 * twice delivers one file; the run's reference is the file's SHA-256.
 */
import { inject } from 'tsyringe';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { announce } from '../../hooks/domain/connector-handlers';
import { PAYROLL_FILE_CONNECTOR, type PayrollFileConnector } from '../../hooks/domain/connectors';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { newHireCsv, payrollHire } from './new-hire-file';

@HookHandlerFor({
  name: 'payroll-new-hire-file',
  hook: 'candidate.hired',
  action: 'payroll.payroll_sync',
  steps: ['payroll_files'],
  description: 'Delivers the hire to payroll as a new_hire.v1 CSV file (SFTP) and publishes payroll.file_delivered with its SHA-256',
})
export class PayrollNewHireFileHandler implements GatedHookHandler {
  constructor(
    @inject(PAYROLL_FILE_CONNECTOR) private readonly files: PayrollFileConnector,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const hire = parsePayload(payrollHire, payload);
    const file = await this.files.deliverFile({
      organizationId,
      actionKey: 'payroll.payroll_sync',
      idempotencyKey: `payroll-new-hire-${organizationId}-${hire.candidate_id}`,
      fileName: `new-hire-${hire.candidate_id}.csv`,
      content: newHireCsv(hire),
    });
    const result = { candidate_id: hire.candidate_id, format: 'new_hire.v1', path: file.path, sha256: file.sha256, run_id: file.deliveryId };
    await announce(this.events, this.logger, 'payroll.file_delivered', organizationId, result, `${organizationId}-new-hire-${hire.candidate_id}`);
    return result;
  }
}
