/** Helpers of the hook tests: the gated actions and activating one until it is active. */
import { strict as assert } from 'node:assert';
import { settledLicense } from './licensing';
import type { TestHost } from './test-host';

export const GATED_ACTIONS = [
  'notifications.interview_reminder',
  'sms.interview_reminder',
  'video_meetings.create_meeting_link',
  'esign.send_offer',
  'hris.employee_sync',
];

/** Actions whose handlers need no connector: the credential checks on `credentials.presented` (tested in credential-checks-api). */
export const CREDENTIAL_CHECK_ACTIONS = [
  'background_checks.credentialing',
  'background_checks.license_verification',
  'background_checks.food_handler_verification',
  'background_checks.union_verification',
];

export async function activateLicense(t: TestHost, apiKey: string, action: string): Promise<any> {
  const response = await t.request('POST', `/v1/integrations/licenses/${action}/activate`, { auth: apiKey });
  assert.ok(response.status === 202 || response.status === 200, response.text);
  const license = await settledLicense(t, apiKey, response.body.id);
  assert.equal(license.status, 'active');
  return license;
}
