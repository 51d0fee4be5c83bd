/** The SMS connectors' answers as stable codes: Twilio's HTTP status and error code, SMPP's command_status. */
import { strict as assert } from 'node:assert';
import * as smpp from 'smpp';
import { classifyBindStatus, classifySubmitStatus } from '../../src/connectors/smpp/smpp-errors';
import { classifyTwilioAnswer, twilioFailure } from '../../src/connectors/twilio/twilio-errors';

describe('SMS connector error codes', () => {
  it("Twilio: 4xx are permanent with Twilio's code named; 429 retries after Retry-After; 5xx retries", () => {
    const cases: [number, unknown, string, boolean][] = [
      [401, { code: 20003, message: 'Authenticate', status: 401 }, 'connection_auth_failed', false],
      [400, { code: 21211, message: "The 'To' number is not a valid phone number." }, 'recipient_invalid', false],
      [400, { code: 21610, message: 'Attempt to send to unsubscribed recipient' }, 'recipient_opted_out', false],
      [400, { code: 21606, message: "The 'From' phone number provided is not a valid message-capable Twilio phone number" }, 'sender_invalid', false],
      [400, { code: 99999, message: 'something new' }, 'message_rejected', false],
      [400, 'not json at all', 'message_rejected', false],
      [503, { code: 20500, message: 'Internal Server Error' }, 'counterpart_unavailable', true],
      [429, { code: 20429, message: 'Too Many Requests' }, 'rate_limited', true],
    ];
    for (const [status, body, code, transient] of cases) {
      const c = classifyTwilioAnswer(status, body, null);
      assert.deepEqual([c.code, c.transient], [code, transient], `${status} ${JSON.stringify(body)}`);
    }
    const limited = twilioFailure(classifyTwilioAnswer(429, {}, '7'));
    assert.equal(limited.kind, 'upstream');
    assert.equal(limited.details.retryAfterSeconds, 7);
    assert.equal(twilioFailure(classifyTwilioAnswer(400, { code: 21211 }, null)).kind, 'conflict');
  });

  it('SMPP: a refused bind is connection_auth_failed; throttling retries; a bad destination is permanent', () => {
    for (const status of [smpp.ESME_RINVPASWD, smpp.ESME_RINVSYSID, smpp.ESME_RBINDFAIL])
      assert.equal(classifyBindStatus(status).code, 'connection_auth_failed');
    for (const status of [smpp.ESME_RTHROTTLED, smpp.ESME_RMSGQFUL, smpp.ESME_RSYSERR]) assert.equal(classifySubmitStatus(status).transient, true);
    assert.deepEqual(classifySubmitStatus(smpp.ESME_RINVDSTADR), {
      code: 'recipient_invalid',
      message: 'The SMSC refused submit_sm (command_status 0x0000000b)',
      transient: false,
    });
    assert.equal(classifySubmitStatus(0x45).code, 'message_rejected');
  });
});
