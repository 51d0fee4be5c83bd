/** Every message kind renders in each of the six languages: no placeholder left, values escaped in HTML, lang/dir right. */
import { strict as assert } from 'node:assert';
import { messageLanguage, MESSAGE_LOCALES } from '../../src/features/messages/domain/message-language';
import { TEMPLATES, type MessageKind } from '../../src/features/messages/domain/message-templates';
import { renderMessage } from '../../src/features/messages/domain/render-message';
import { SignedLinks } from '../../src/features/messages/domain/signed-links';

const KINDS = Object.keys(TEMPLATES.en).filter((k) => k !== 'links' && k !== 'footer_unsubscribe') as MessageKind[];
const PARAMS = {
  name: 'Ada <b>',
  title: 'T',
  when: 'W',
  location: 'L',
  stage: 'S',
  job: 'J',
  note: 'N',
  organization: 'O',
  production: 'P',
  date: 'D',
  call_time: 'C',
};

describe('message templates', () => {
  it('render every kind in every language with every parameter used and escaped', () => {
    for (const locale of MESSAGE_LOCALES) {
      for (const kind of KINDS) {
        const m = renderMessage(kind, locale, PARAMS, { links: [{ kind: 'confirm', url: 'https://x.example/?a=1&b=2' }], footer: 'unsubscribe' });
        for (const part of [m.subject, m.text, m.html]) assert.doesNotMatch(part, /\{[a-z_]+\}/, `${locale} ${kind}`);
        assert.match(m.html, /Ada &lt;b&gt;/);
        assert.match(m.html, /href="https:\/\/x\.example\/\?a=1&amp;b=2"/);
        assert.match(m.html, new RegExp(`<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">`));
      }
    }
  });

  it('negotiates the language: a region keeps its tag, anything unknown or malformed is English', () => {
    assert.deepEqual(messageLanguage('pt-br'), { locale: 'pt', tag: 'pt-BR', direction: 'ltr' });
    assert.equal(messageLanguage('ar-EG').direction, 'rtl');
    for (const tag of [undefined, '', 'zz', 'x-klingon', 'not a tag', 'ja']) assert.equal(messageLanguage(tag).locale, 'en');
  });

  it('leaves out a line whose value is missing, and keeps line breaks out of the subject', () => {
    const m = renderMessage('status_update', 'en', { name: 'A', stage: 'Offer\r\nBcc: x@y.example' });
    assert.equal(m.subject, 'Your application: Offer Bcc: x@y.example');
    assert.doesNotMatch(m.text, /for {2}has/);
    assert.match(m.text, /your application has moved to/);
  });

  it('signed links: a changed, cut, re-purposed or expired token is refused', () => {
    const links = new SignedLinks(Buffer.alloc(32, 7));
    const now = new Date('2030-01-01T00:00:00Z');
    const token = links.sign({ p: 'unsubscribe', o: 'org_1', r: 'su_1' });
    assert.deepEqual(links.verify(token, 'unsubscribe', now), { p: 'unsubscribe', o: 'org_1', r: 'su_1' });
    const code = (f: () => unknown) => assert.throws(f, (e: { code?: string }) => e.code !== undefined && /^link_/.test(e.code));
    code(() => links.verify(token.slice(0, -1), 'unsubscribe', now));
    code(() => links.verify(`${token}.x`, 'unsubscribe', now));
    code(() => links.verify(token, 'call_sheet_confirm', now));
    code(() => new SignedLinks(Buffer.alloc(32, 8)).verify(token, 'unsubscribe', now));
    const expired = links.sign({ p: 'call_sheet_confirm', o: 'org_1', r: 'cs_1', x: now.getTime() / 1000 - 1 });
    assert.throws(
      () => links.verify(expired, 'call_sheet_confirm', now),
      (e: { code?: string }) => e.code === 'link_expired',
    );
  });
});
