/** Small server-rendered pages (OAuth popup, sandbox consent): escaping, nonces, headers. */
import { randomBytes } from 'node:crypto';
import type { Response } from 'express';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON that is safe inside a <script> element: no `</script>`, no HTML comment openers, no line separators. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
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

export function pageShell(title: string, body: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#1f2328}h1{font-size:1.3rem}button{font:inherit;padding:.5rem 1rem;margin:.25rem 0;border-radius:6px;border:1px solid #8c959f;background:#f6f8fa;cursor:pointer;display:block;width:100%}button.primary{background:#1f6feb;color:#fff;border-color:#1f6feb}.muted{color:#59636e}ul{padding-left:1.2rem}</style>
</head><body>${body}</body></html>`;
}
