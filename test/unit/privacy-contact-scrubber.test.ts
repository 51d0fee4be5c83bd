import { strict as assert } from 'node:assert';
import { scrubContactDetails } from '../../src/features/privacy/domain/contact-scrubber';

describe('privacy: contact details scrubbed from stored error messages', () => {
  it('removes email addresses and phone numbers, keeps status codes and the rest of the text', () => {
    const cases: [string, string][] = [
      ['550 5.1.1 <ann.lee+jobs@mail.example.co.uk>: Recipient address rejected', '550 5.1.1 <[email]>: Recipient address rejected'],
      ["The 'To' number +1 (500) 555-0006 is not a valid phone number.", "The 'To' number [phone] is not a valid phone number."],
      ['21211: +15005550001 unreachable; retry 3 of 5 at 10.0.0.1', '21211: [phone] unreachable; retry 3 of 5 at 10.0.0.1'],
      ['call 415-555-0132 or 4155550132 (timeout 30000 ms, HTTP 503)', 'call [phone] or [phone] (timeout 30000 ms, HTTP 503)'],
      ['421 4.7.0 try again later', '421 4.7.0 try again later'],
    ];
    for (const [raw, stored] of cases) assert.equal(scrubContactDetails(raw), stored, raw);
    assert.equal(scrubContactDetails(null), null);
  });
});
