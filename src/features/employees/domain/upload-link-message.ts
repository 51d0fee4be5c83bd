/**
 * The upload link email in the employee's language: subject, plain text and an HTML part
 * with the same words (`lang` and `dir` set, Arabic right to left; every value escaped).
 * The Content-Language is the employee's tag when its language is one of the six, else
 * English, so the header always names the language the words are in.
 */
import { escapeHtml } from '../../../kernel/html-escape';
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import { UPLOAD_LINK_STRINGS, fillUploadLink } from './upload-link-strings';

export function uploadLinkMessage(
  employee: { name: string; language?: string },
  label: string,
  url: string,
  expiresAt: Date,
): { subject: string; text: string; html: string; language: string } {
  const language = messageLanguage(employee.language);
  const s = UPLOAD_LINK_STRINGS[language.locale];
  const credentialsUrl = url.replace('/v1/employee-uploads?', '/v1/employee-uploads/credentials?');
  const params = { name: employee.name, label, until: formatMoment(expiresAt, language, undefined, 'date'), credentials_url: credentialsUrl };
  // Line breaks in the organization's label never reach the Subject header.
  const subject = fillUploadLink(s.subject, params).replace(/[\r\n]+/g, ' ');
  const text = [
    fillUploadLink(s.greeting, params),
    '',
    fillUploadLink(s.upload, params),
    fillUploadLink(s.send_file, params),
    url,
    '',
    fillUploadLink(s.credential, params),
    fillUploadLink(s.send_credential, params),
  ].join('\n');
  const escaped = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, escapeHtml(value)]));
  const link = (href: string) => `<a href="${escapeHtml(href)}">${escapeHtml(href)}</a>`;
  const html = [
    '<!doctype html>',
    `<html lang="${escapeHtml(language.tag)}" dir="${language.direction}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;line-height:1.5">',
    `<p>${fillUploadLink(escapeHtml(s.greeting), escaped)}</p>`,
    `<p>${fillUploadLink(escapeHtml(s.upload), escaped)}<br>${fillUploadLink(escapeHtml(s.send_file), escaped)}<br>${link(url)}</p>`,
    `<p>${fillUploadLink(escapeHtml(s.credential), escaped)} ${fillUploadLink(escapeHtml(s.send_credential), { ...escaped, credentials_url: link(credentialsUrl) })}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html, language: language.tag };
}
