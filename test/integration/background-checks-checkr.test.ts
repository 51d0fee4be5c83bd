/**
 * The `checkr` connector against Prism serving the Checkr contract (test/fixtures/checkr: written
 * from Checkr's API reference and official client, see SOURCE.md; Prism validates each of our
 * requests against it): the connection test reads the account; an order creates the candidate and
 * the invitation (the hosted consent flow); monitoring enrolls a continuous check; reports and
 * motor vehicle records read back in Checkr's shape; webhooks verify by X-Checkr-Signature only.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { checkrConnector } from '../../src/connectors/checkr';
import { checkrSignature } from '../../src/connectors/checkr/checkr-webhook';
import { checkrCredentials, checkrSettings } from '../../src/connectors/checkr/settings';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { isDomainError } from '../../src/kernel/errors';
import { startPrism, type PrismServer } from '../helpers/prism';
import { freePort } from '../helpers/processes';

const SPEC = path.join(PACKAGE_ROOT, 'test/fixtures/checkr/checkr.openapi.yaml');
const KEY = '83ebeabdec09f6670863766f792ead24d61fe3f9';

describe('background checks: the checkr connector', function () {
  this.timeout(60_000);
  let prism: PrismServer;
  const credentials = checkrCredentials.parse({ api_key: KEY });
  const settings = (base: string) => checkrSettings.parse({ api_base_url: base });
  const base = { organizationId: 'org_1', actionKey: 'background_checks.run_check', idempotencyKey: 'k1' };

  before(async () => {
    prism = await startPrism(SPEC);
  });
  after(async () => {
    await prism?.stop();
  });

  it('the connection test reads the account with the key (a real round trip that orders nothing)', async () => {
    const outcome = await checkrConnector.test(settings(prism.url), credentials);
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
  });

  it('an order creates the candidate, then an invitation to the hosted consent flow, both accepted by the contract', async () => {
    const port = checkrConnector.open(settings(prism.url), credentials);
    const ordered = await port.orderCheck({
      ...base,
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      packageSlug: 'driver_pro',
      workLocation: { country: 'US', state: 'CA', city: 'San Francisco' },
    });
    assert.match(ordered.vendorCandidateId, /^[a-z0-9]+$/);
    assert.equal(ordered.reference, ordered.invitationId);
    assert.match(ordered.invitationUrl, /^https:\/\//);
    const monitoring = await port.enrollMonitoring({ ...base, idempotencyKey: 'k2', vendorCandidateId: ordered.vendorCandidateId, type: 'criminal' });
    assert.equal(typeof monitoring.subscriptionId, 'string');
  });

  it('reports and motor vehicle records read back in Checkr shape', async () => {
    const port = checkrConnector.open(settings(prism.url), credentials);
    const report = await port.fetchReport('4722c07dd9a10c3985ae432a');
    assert.deepEqual([report.status, report.result, typeof report.motorVehicleReportId], ['complete', 'consider', 'string']);
    const mvr = await port.fetchMotorVehicleRecord(report.motorVehicleReportId!);
    assert.equal(mvr.licenseStatus, 'valid');
    assert.ok(mvr.violations.some((v) => /under the influence/.test(v.description)));
  });

  it('Checkr out of reach is a transient connection_unreachable; a refused key fails the test with connection_auth_failed', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const outcome = await checkrConnector.test(settings(closed), credentials);
    assert.equal(outcome.ok ? 'ok' : outcome.code, 'connection_unreachable');
    await assert.rejects(checkrConnector.open(settings(closed), credentials).fetchReport('r1'), (e: unknown) => isDomainError(e) && e.kind === 'upstream');
    // No Authorization header at all: the contract's basic auth refuses it (Prism answers 401).
    const anonymous = await fetch(`${prism.url}/v1/account`);
    assert.equal(anonymous.status, 401);
    assert.ok(!checkrSettings.safeParse({ api_base_url: 'http://api.checkr.com' }).success, 'no clear-text key');
    assert.ok(!checkrCredentials.safeParse({ api_key: 'short' }).success);
  });

  it('webhooks: a body signed with the key verifies; forged, tampered or unsigned ones are webhook_signature_invalid', () => {
    const port = checkrConnector.open(settings(prism.url), credentials);
    const body = Buffer.from(
      JSON.stringify({
        id: 'evt_1',
        object: 'event',
        type: 'report.completed',
        data: { object: { id: 'r1', object: 'report', status: 'complete', result: 'clear' } },
      }),
    );
    const event = port.verifyWebhook(body, checkrSignature(body, KEY));
    assert.deepEqual([event.id, event.type, event.object.id], ['evt_1', 'report.completed', 'r1']);
    const refused = (raw: Buffer, signature: string | undefined) =>
      assert.throws(
        () => port.verifyWebhook(raw, signature),
        (e: unknown) => isDomainError(e) && e.kind === 'invalid' && e.code === 'webhook_signature_invalid',
      );
    refused(body, checkrSignature(body, 'someone-elses-key-0000'));
    refused(Buffer.from(body.toString().replace('clear', 'consider')), checkrSignature(body, KEY));
    refused(body, undefined);
    refused(body, 'not-hex');
  });
});
