/** `application.stage_changed` → a status update to the candidate (notifications.status_update). */
import { inject } from 'tsyringe';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../../organizations/domain/ports';
import { stageChanged, STATUS_UPDATE_ACTION } from './status-update';
import { StatusUpdates } from './status-updates';

@HookHandlerFor({
  name: 'status-update',
  hook: 'application.stage_changed',
  action: STATUS_UPDATE_ACTION,
  steps: ['email'],
  description: 'Emails the candidate that their application moved to another stage, in their language, once per change, with a one-click unsubscribe',
})
export class StatusUpdateHandler implements GatedHookHandler {
  constructor(
    @inject(StatusUpdates) private readonly updates: StatusUpdates,
    @inject(ORGANIZATION_REPOSITORY) private readonly organizations: OrganizationRepository,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const change = parsePayload(stageChanged, payload);
    const name = change.organization_name ?? (await this.organizations.findById(organizationId))?.name ?? organizationId;
    return this.updates.send(organizationId, change, name);
  }
}
