/** Small server-rendered pages (OAuth popup, sandbox consent): escaping, nonces, headers. */
import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { escapeHtml } from '../../kernel/html-escape';

export { escapeHtml };

/** JSON that is safe inside a <script> element: no `</script>`, no HTML comment openers, no line separators. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export const newNonce = () => randomBytes(18).toString('base64');

export function sendPage(res: Response, status: number, html: string, csp: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.send(html);
}

/** Light and dark (the reader's `prefers-color-scheme`), AA contrast in both. */
const SHELL_CSS =
  ':root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#8c959f;--btn:#f6f8fa;--accent:#1f6feb;--on-accent:#fff;--ring:#0969da}' +
  '@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--btn:#21262d;--accent:#4493f8;--on-accent:#0d1117;--ring:#4493f8}}' +
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:var(--bg);color:var(--fg)}main{max-width:34rem;margin:2rem auto;padding:0 1rem}h1{font-size:1.3rem}' +
  'a{color:var(--accent)}button{font:inherit;padding:.5rem 1rem;margin:.25rem 0;border-radius:6px;border:1px solid var(--line);background:var(--btn);color:var(--fg);cursor:pointer;display:block;width:100%;min-height:44px}' +
  'button.primary{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}button:focus-visible,a:focus-visible{outline:3px solid var(--ring);outline-offset:2px}.muted{color:var(--muted)}ul{padding-left:1.2rem}';

/** `language`: the page's BCP 47 tag and direction (pages in the reader's language, e.g. an unsubscribe page). */
export function pageShell(
  title: string,
  body: string,
  nonce: string,
  language: { tag: string; direction: 'ltr' | 'rtl' } = { tag: 'en', direction: 'ltr' },
): string {
  return `<!doctype html>
<html lang="${escapeHtml(language.tag)}" dir="${language.direction}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${SHELL_CSS}</style>
</head><body><main>${body}</main></body></html>`;
}

/** What a page behind a message link answers when the link cannot be used (tampered, expired, for something gone). */
export interface LinkRefusal {
  status: number;
  /** The stable error code: shown on the page and in `X-Error-Code`. */
  code: string;
  title: string;
  text: string;
  retryAfterSeconds?: number;
}

export function sendLinkRefusal(res: Response, refusal: LinkRefusal, csp: (nonce: string) => string): void {
  const nonce = newNonce();
  const body = `<h1>${escapeHtml(refusal.title)}</h1><p>${escapeHtml(refusal.text)}</p><p class="muted">${escapeHtml(refusal.code)}</p>`;
  res.setHeader('X-Error-Code', refusal.code);
  if (refusal.retryAfterSeconds) res.setHeader('Retry-After', String(refusal.retryAfterSeconds));
  sendPage(res, refusal.status, pageShell(refusal.title, body, nonce), csp(nonce));
}
