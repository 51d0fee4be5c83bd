/** GSM-7 vs UCS-2 and segment counts: 160/153 septets, 70/67 UTF-16 units, extended chars count 2. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { gsm7Septets, segmentSms } from '../../src/features/sms/domain/sms-segments';

const BASIC = [...'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà'];
const EXTENDED = [...'\f^{}\\[~]|€'];
const gsmChar = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...BASIC) }, { weight: 1, arbitrary: fc.constantFrom(...EXTENDED) });
const ucsOnly = fc.constantFrom('ą', 'ł', 'ç', 'ж', '中', '😀', '👍🏽');

describe('SMS encoding and segments', () => {
  it('fills one GSM-7 segment with 160 septets and splits at 153', () => {
    assert.deepEqual(segmentSms('a'.repeat(160)), { encoding: 'GSM-7', units: 160, segments: 1 });
    assert.deepEqual(segmentSms('a'.repeat(161)), { encoding: 'GSM-7', units: 161, segments: 2 });
    assert.equal(segmentSms('a'.repeat(306)).segments, 2);
    assert.equal(segmentSms('a'.repeat(307)).segments, 3);
  });

  it('counts extended characters as two septets and never splits an escape pair', () => {
    assert.deepEqual(segmentSms('€'.repeat(80)), { encoding: 'GSM-7', units: 160, segments: 1 });
    assert.equal(segmentSms('€'.repeat(81)).segments, 2);
    // 152 septets then a two-septet € does not fit the first 153-septet segment.
    assert.equal(segmentSms('a'.repeat(152) + '€' + 'a'.repeat(10)).segments, 2);
    assert.equal(segmentSms('a'.repeat(152) + '€' + 'a'.repeat(152)).segments, 3);
  });

  it('switches to UCS-2 for one character outside GSM-7: 70 units, then 67 per segment', () => {
    assert.deepEqual(segmentSms('ą'.repeat(70)), { encoding: 'UCS-2', units: 70, segments: 1 });
    assert.deepEqual(segmentSms('ą'.repeat(71)), { encoding: 'UCS-2', units: 71, segments: 2 });
    assert.equal(segmentSms('ą'.repeat(134)).segments, 2);
    assert.equal(segmentSms('ą'.repeat(135)).segments, 3);
    // An emoji is a surrogate pair: two units, never split across segments.
    assert.deepEqual(segmentSms('😀'.repeat(35)), { encoding: 'UCS-2', units: 70, segments: 1 });
    assert.equal(segmentSms('a'.repeat(66) + '😀' + 'a'.repeat(66)).segments, 3);
    assert.equal(segmentSms('Hello ' + 'a'.repeat(150) + '中').encoding, 'UCS-2');
  });

  it('property: GSM-7 text takes its septets and the fewest segments of 153 that hold them', () => {
    fc.assert(
      fc.property(fc.array(gsmChar, { maxLength: 700 }), (chars) => {
        const text = chars.join('');
        const septets = chars.reduce((n, c) => n + gsm7Septets(c)!, 0);
        const result = segmentSms(text);
        assert.equal(result.encoding, 'GSM-7');
        assert.equal(result.units, septets);
        if (septets <= 160) assert.equal(result.segments, 1);
        else {
          // Greedy packing: at least ceil(septets/153); a pair pushed over adds at most one septet of slack per segment.
          assert.ok(result.segments >= Math.ceil(septets / 153));
          assert.ok(result.segments <= Math.ceil(septets / 152));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: any character outside GSM-7 makes the text UCS-2, counted in UTF-16 units', () => {
    fc.assert(
      fc.property(fc.array(gsmChar, { maxLength: 300 }), ucsOnly, fc.nat(300), (chars, odd, at) => {
        chars.splice(at % (chars.length + 1), 0, odd);
        const text = chars.join('');
        const result = segmentSms(text);
        assert.equal(result.encoding, 'UCS-2');
        assert.equal(result.units, text.length);
        if (text.length <= 70) assert.equal(result.segments, 1);
        else {
          assert.ok(result.segments >= Math.ceil(text.length / 67));
          assert.ok(result.segments <= Math.ceil(text.length / 66));
        }
      }),
      { numRuns: 300 },
    );
  });
});
