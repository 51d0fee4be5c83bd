/**
 * The signer's page, mounted at /v1/sign (no account, no API key: the signed token is the
 * credential). Server-rendered in the signer's language, usable at 390 px and with a keyboard:
 * the document's text (and its PDF), the consent to sign electronically, a typed name (the
 * signature; enough without JavaScript) and optionally a drawn mark on a canvas, or decline
 * with a reason.
 *
 *   GET  /?token=…                   the document, or what became of it
 *   GET  /document?token=…           the PDF (the signed one once signed)
 *   POST /?token=…  action=sign      consent=yes, typed_name, signature_image (PNG data URL, optional)
 *   POST /?token=…  action=decline   reason (optional)
 */
import express, { Router, type Request, type Response } from 'express';
import { isDomainError } from '../../../kernel/errors';
import { escapeHtml, newNonce, pageShell, sendLinkRefusal, sendPage } from '../../../platform/http/html';
import { notFoundHandler } from '../../../platform/http/errors';
import type { ApiRouter } from '../../../platform/http/route';
import type { RouterKit } from '../../../platform/http/router-kit';
import { messageLanguage } from '../../messages/domain/message-language';
import { PAGE_STRINGS } from '../../messages/domain/page-strings';
import type { Envelopes, SignerContext, SigningView } from '../domain/envelopes';
import { fill, SIGNING_STRINGS, type SigningStrings } from '../domain/signing-strings';
import { documentBlocks } from '../domain/template-language';

const csp = (nonce: string) =>
  `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
const STATUS: Record<string, number> = { invalid: 400, not_found: 404, conflict: 409, gone: 410, too_large: 413, upstream: 503 };
const tokenOf = (req: Request) => (typeof req.query.token === 'string' ? req.query.token.slice(0, 2000) : '');
const contextOf = (req: Request): SignerContext => ({ ip: req.ip ?? req.socket.remoteAddress ?? '', userAgent: String(req.get('user-agent') ?? '') });

const PAGE_CSS =
  '.doc{border:1px solid var(--line);border-radius:6px;padding:.25rem 1rem;margin:1rem 0}.doc h2{font-size:1.1rem}.doc p{white-space:pre-line}' +
  'fieldset{border:1px solid var(--line);border-radius:6px;margin:1rem 0;padding:.5rem .75rem}legend{font-weight:600;padding:0 .25rem}' +
  'label{display:block;margin:.5rem 0 .25rem}input[type=text],textarea{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}' +
  'input:focus-visible,textarea:focus-visible,canvas:focus-visible{outline:3px solid var(--ring);outline-offset:2px}' +
  '.consent{display:flex;gap:.6rem;align-items:flex-start}.consent input{width:1.3rem;height:1.3rem;margin:.2rem 0 0;flex:none}' +
  'canvas{width:100%;height:auto;aspect-ratio:3/1;border:1px dashed var(--line);border-radius:6px;touch-action:none;background:#fff}' +
  '.hint{color:var(--muted);font-size:.9rem;margin:.25rem 0}.alert{border-left:4px solid var(--accent);padding:.25rem .75rem}';

/** Draws on the canvas with a pointer; the PNG goes with the form when something was drawn. */
const SCRIPT =
  "(function(){var w=document.getElementById('draw');if(!w)return;w.hidden=false;var c=document.getElementById('pad'),x=c.getContext('2d'),o=document.getElementById('signature_image'),d=false,any=false;" +
  "x.lineWidth=3;x.lineCap='round';x.strokeStyle='#111';function p(e){var r=c.getBoundingClientRect();return[(e.clientX-r.left)*c.width/r.width,(e.clientY-r.top)*c.height/r.height]}" +
  "c.addEventListener('pointerdown',function(e){d=true;any=true;var q=p(e);x.beginPath();x.moveTo(q[0],q[1]);c.setPointerCapture(e.pointerId)});" +
  "c.addEventListener('pointermove',function(e){if(!d)return;var q=p(e);x.lineTo(q[0],q[1]);x.stroke()});" +
  "c.addEventListener('pointerup',function(){d=false});document.getElementById('clear').addEventListener('click',function(){x.clearRect(0,0,c.width,c.height);any=false;o.value=''});" +
  "document.getElementById('sign-form').addEventListener('submit',function(){if(any)o.value=c.toDataURL('image/png')})})();";

function documentHtml(view: SigningView, s: SigningStrings): string {
  const blocks = documentBlocks(view.envelope.documentText)
    .map((b) => (b.kind === 'heading' ? `<h2>${escapeHtml(b.text)}</h2>` : `<p>${escapeHtml(b.text)}</p>`))
    .join('');
  return (
    `<section class="doc" aria-label="${escapeHtml(view.envelope.title)}">${blocks}</section>` +
    `<p><a href="document?token=${encodeURIComponent(view.token)}">${escapeHtml(s.download)}</a></p>`
  );
}

function render(view: SigningView, nonce: string, error?: string): string {
  const language = messageLanguage(view.envelope.language);
  const s = SIGNING_STRINGS[language.locale];
  const organization = view.organizationName;
  const params = { organization, title: view.envelope.title };
  const action = `?token=${encodeURIComponent(view.token)}`;
  let body = `<style nonce="${nonce}">${PAGE_CSS}</style><h1>${escapeHtml(s.title)}</h1>`;
  if (error) body += `<p class="alert" id="alert" role="alert">${escapeHtml(error)}</p>`;
  const status = view.envelope.status;
  const expired = view.expired;
  if (status === 'signed' || status === 'declined' || status === 'voided' || expired) {
    const text = status === 'signed' ? s.signed : status === 'declined' ? s.declined : status === 'voided' ? s.voided : s.expired;
    body += `<p role="status">${escapeHtml(fill(text, params))}</p>`;
    if (status === 'signed') body += documentHtml(view, s);
    return pageShell(s.title, body, nonce, language);
  }
  body += `<p>${escapeHtml(fill(s.intro, params))}</p>` + documentHtml(view, s);
  body +=
    `<form id="sign-form" method="post" action="${action}"${error ? ' aria-describedby="alert"' : ''}>` +
    `<input type="hidden" name="action" value="sign"><input type="hidden" name="signature_image" id="signature_image" value="">` +
    `<fieldset><legend>${escapeHtml(s.signature_legend)}</legend>` +
    `<label for="typed_name">${escapeHtml(s.typed)}</label><p class="hint" id="typed_hint">${escapeHtml(s.typed_hint)}</p>` +
    `<input type="text" id="typed_name" name="typed_name" autocomplete="name" required maxlength="200" aria-describedby="typed_hint" value="${escapeHtml(view.envelope.signer.name)}">` +
    `<div id="draw" hidden><p id="draw_label">${escapeHtml(s.drawn)}</p><p class="hint" id="draw_hint">${escapeHtml(s.drawn_hint)}</p>` +
    `<canvas id="pad" width="600" height="200" role="img" aria-labelledby="draw_label" aria-describedby="draw_hint"></canvas>` +
    `<button type="button" id="clear">${escapeHtml(s.clear)}</button></div>` +
    `<p class="consent"><input type="checkbox" id="consent" name="consent" value="yes" required><label for="consent">${escapeHtml(fill(s.consent, params))}</label></p>` +
    `</fieldset><button class="primary" type="submit">${escapeHtml(s.sign)}</button></form>` +
    `<form method="post" action="${action}"><fieldset><legend>${escapeHtml(s.decline_legend)}</legend><input type="hidden" name="action" value="decline">` +
    `<label for="reason">${escapeHtml(s.decline_reason)}</label><textarea id="reason" name="reason" rows="3" maxlength="1000"></textarea>` +
    `<button type="submit">${escapeHtml(s.decline)}</button></fieldset></form>` +
    `<script nonce="${nonce}">${SCRIPT}</script>`;
  return pageShell(s.title, body, nonce, language);
}

export function esignPageRouter(envelopes: Envelopes, kit: RouterKit): ApiRouter {
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  const form = express.urlencoded({ extended: false, limit: '200kb' });

  const refused = (res: Response, error: unknown) => {
    if (!isDomainError(error) || !STATUS[error.kind]) throw error;
    const s = PAGE_STRINGS.en;
    const text = error.code === 'signing_link_invalid' ? s.link_invalid : error.message;
    sendLinkRefusal(res, { status: STATUS[error.kind]!, code: error.code, title: s.link_invalid_title, text }, csp);
  };
  const show = (res: Response, status: number, view: SigningView, error?: string) => {
    const nonce = newNonce();
    sendPage(res, status, render(view, nonce, error), csp(nonce));
  };

  router.get('/', (req, res, next) => {
    envelopes
      .view(tokenOf(req), contextOf(req))
      .then(
        (view) => show(res, 200, view),
        (error) => refused(res, error),
      )
      .catch(next);
  });

  router.get('/document', (req, res, next) => {
    envelopes
      .signerDocument(tokenOf(req))
      .then(
        ({ envelope, pdf }) => {
          res.setHeader('Content-Type', 'application/pdf');
          res.setHeader('Content-Disposition', `inline; filename="${envelope.id}.pdf"`);
          res.setHeader('Cache-Control', 'no-store');
          res.setHeader('Referrer-Policy', 'no-referrer');
          res.setHeader('X-Content-Type-Options', 'nosniff');
          res.status(200).send(pdf);
        },
        (error) => refused(res, error),
      )
      .catch(next);
  });

  router.post('/', form, (req, res, next) => {
    const token = tokenOf(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const text = (key: string, max: number) => (typeof body[key] === 'string' ? (body[key] as string).slice(0, max) : '');
    const context = contextOf(req);
    const attempt = async () => {
      if (body.action === 'decline') return show(res, 200, await envelopes.decline(token, text('reason', 1000), context));
      try {
        const drawn = text('signature_image', 100_000);
        return show(
          res,
          200,
          await envelopes.sign(token, { consent: body.consent === 'yes', typedName: text('typed_name', 300), ...(drawn ? { drawn } : {}) }, context),
        );
      } catch (error) {
        // Something to fix on the page, or the time-stamp authority to wait for (PAdES-B-T): the page again, saying what.
        const fixable = ['consent_required', 'signature_name_required', 'signature_image_invalid'];
        const later = ['timestamp_unavailable', 'timestamp_refused', 'timestamp_invalid'];
        if (!isDomainError(error) || ![...fixable, ...later].includes(error.code)) throw error;
        const view = await envelopes.view(token, context);
        const s = SIGNING_STRINGS[messageLanguage(view.envelope.language).locale];
        res.setHeader('X-Error-Code', error.code);
        if (later.includes(error.code)) return show(res, 503, view, s.sign_later);
        return show(
          res,
          400,
          view,
          error.code === 'consent_required' ? s.consent_required : error.code === 'signature_name_required' ? s.name_required : error.message,
        );
      }
    };
    attempt()
      .catch((error: unknown) => refused(res, error))
      .catch(next);
  });

  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'esign-pages', router, routes: [] };
}
