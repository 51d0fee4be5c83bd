/**
 * What SMS counterparts send back, read without a network: Twilio's request signature
 * against the example vectors Twilio publishes, SMPP deliver_sm (receipts and mobile-originated
 * messages), the opt-out keywords, and delivery status that never moves backwards.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type * as smpp from 'smpp';
import { readDeliverSm } from '../../src/connectors/smpp/smpp-deliver-sm';
import { twilioSignature, validTwilioSignature } from '../../src/connectors/twilio/twilio-signature';
import { advancesDelivery, type SmsDeliveryStatus } from '../../src/features/sms/domain/delivery-status';
import { optOutIntent } from '../../src/features/sms/domain/opt-out-keywords';

// Twilio's published examples (TwilioDevEd/api-snippets security/signature_validation, the docs' "Validating requests").
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const params = (caller: string) => ({ CallSid: 'CA1234567890ABCDE', Caller: caller, Digits: '1234', From: caller, To: '+18005551212' });

const pdu = (fields: Record<string, unknown>) => fields as unknown as smpp.PDU;

describe('SMS callbacks', () => {
  it("Twilio's signature matches the vectors Twilio publishes, and nothing else", () => {
    assert.equal(twilioSignature('12345', URL_, params('+14158675310')), 'GvWf1cFY/Q7PnoempGyD5oXAezc=');
    assert.equal(twilioSignature('12345', URL_, params('+14158675309')), 'RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    assert.ok(validTwilioSignature('12345', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', ['https://other.example/', URL_], params('+14158675309')));
    assert.ok(!validTwilioSignature('12345', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', [URL_], { ...params('+14158675309'), Digits: '1235' }));
    assert.ok(!validTwilioSignature('54321', 'RSOYDt4T1cUTdK1PDd93/VVr8B8=', [URL_], params('+14158675309')));
    assert.ok(!validTwilioSignature('12345', 'short', [URL_], params('+14158675309')));
  });

  it('SMPP deliver_sm: Appendix B receipts, the receipt TLVs, and mobile-originated messages', () => {
    assert.deepEqual(
      readDeliverSm(
        pdu({
          esm_class: 0x04,
          short_message: { message: 'id:msg-000001 sub:001 dlvrd:001 submit date:2611251200 done date:2611251201 stat:DELIVRD err:000 text:' },
        }),
      ),
      { kind: 'receipt', messageId: 'msg-000001', status: 'delivered', errorCode: null },
    );
    assert.deepEqual(readDeliverSm(pdu({ esm_class: 0x04, short_message: 'id:7 stat:UNDELIV err:034' })), {
      kind: 'receipt',
      messageId: '7',
      status: 'undelivered',
      errorCode: '034',
    });
    assert.deepEqual(readDeliverSm(pdu({ esm_class: 0x04, receipted_message_id: 'abc', message_state: 8, short_message: '' })), {
      kind: 'receipt',
      messageId: 'abc',
      status: 'failed',
      errorCode: null,
    });
    assert.deepEqual(readDeliverSm(pdu({ esm_class: 0x04, short_message: 'garbage' })), { kind: 'other' });
    assert.deepEqual(readDeliverSm(pdu({ esm_class: 0, source_addr: '4915112345678', short_message: { message: 'STOP' } })), {
      kind: 'message',
      from: '+4915112345678',
      text: 'STOP',
    });
    assert.deepEqual(readDeliverSm(pdu({ esm_class: 0, source_addr: 'Alpha', short_message: 'STOP' })), { kind: 'other' });
  });

  it('opt-out keywords: the whole message, any case; START and UNSTOP resume', () => {
    for (const text of ['STOP', 'stop', ' Stop. ', 'STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit!']) assert.equal(optOutIntent(text)?.kind, 'stop', text);
    for (const text of ['START', 'unstop']) assert.equal(optOutIntent(text)?.kind, 'start', text);
    for (const text of ['please stop calling', 'stopp', '', 'STOP NOW']) assert.equal(optOutIntent(text), undefined, text);
  });

  it('delivery status never moves back, and a final status stays, whatever order callbacks arrive in', () => {
    const statuses: SmsDeliveryStatus[] = ['queued', 'sent', 'delivered', 'undelivered', 'failed'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...statuses), { maxLength: 8 }), (arrivals) => {
        let current: SmsDeliveryStatus | undefined;
        for (const next of arrivals) if (advancesDelivery(current, next)) current = next;
        const final = arrivals.find((s) => s === 'delivered' || s === 'undelivered' || s === 'failed');
        if (final) assert.equal(current, final, 'the first final status stays');
      }),
      { numRuns: 200 },
    );
  });
});
