/** `production_day.scheduled` → call sheets to cast and crew (notifications.call_sheet_distribution). */
import { inject } from 'tsyringe';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { CALL_SHEET_ACTION, productionDay } from './call-sheet';
import { CallSheets } from './call-sheets';

@HookHandlerFor({
  name: 'call-sheet-distribution',
  hook: 'production_day.scheduled',
  action: CALL_SHEET_ACTION,
  steps: ['email'],
  description: 'Sends each person their call sheet (PDF by email; a signed link by SMS when SMS resolves), records confirmations and reminds at confirm_by',
})
export class CallSheetHandler implements GatedHookHandler {
  constructor(@inject(CallSheets) private readonly sheets: CallSheets) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    return this.sheets.distribute(organizationId, parsePayload(productionDay, payload));
  }
}
