/**
 * The links of call sheets, mounted at /v1/call_sheets (no API key: the signed token is
 * the credential).
 *
 *   GET  /confirm?token=…   a page in the recipient's language with one button (a GET never confirms: scanners open links)
 *   POST /confirm?token=…   confirms (idempotent): `call_sheet.confirmed` once
 *   GET  /sheet?token=…     the person's call sheet as PDF (the SMS links here)
 *
 * A changed token answers a 400 page (link_invalid), an expired one 410 (link_expired).
 */
import express, { Router, type Request, type Response } from 'express';
import { isDomainError } from '../../../kernel/errors';
import { escapeHtml, newNonce, pageShell, sendLinkRefusal, sendPage } from '../../../platform/http/html';
import { notFoundHandler } from '../../../platform/http/errors';
import type { ApiRouter } from '../../../platform/http/route';
import type { RouterKit } from '../../../platform/http/router-kit';
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import { fillPage, PAGE_STRINGS } from '../../messages/domain/page-strings';
import type { CallSheet } from '../domain/call-sheet';
import type { CallSheets } from '../domain/call-sheets';

const csp = (nonce: string) => `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
const STATUS: Record<string, number> = { invalid: 400, not_found: 404, gone: 410 };
const tokenOf = (req: Request) => (typeof req.query.token === 'string' ? req.query.token.slice(0, 2000) : '');

export function callSheetRouter(sheets: CallSheets, kit: RouterKit): ApiRouter {
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  const form = express.urlencoded({ extended: false, limit: '2kb' });

  const refused = (res: Response, error: unknown) => {
    if (!isDomainError(error) || !STATUS[error.kind]) throw error;
    const s = PAGE_STRINGS.en;
    const text = error.code === 'link_invalid' ? s.link_invalid : error.message;
    sendLinkRefusal(res, { status: STATUS[error.kind]!, code: error.code, title: s.link_invalid_title, text }, csp);
  };

  const page = (res: Response, sheet: CallSheet, token: string) => {
    const nonce = newNonce();
    const language = messageLanguage(sheet.language);
    const s = PAGE_STRINGS[language.locale];
    const params = {
      production: escapeHtml(sheet.production),
      date: escapeHtml(formatMoment(sheet.callAt, language, sheet.timezone, 'date')),
      call_time: escapeHtml(formatMoment(sheet.callAt, language, sheet.timezone, 'time')),
    };
    const body =
      `<h1>${escapeHtml(s.confirm_title)}</h1><p>${fillPage(s.confirm_question, params)}</p>` +
      (sheet.status === 'confirmed'
        ? `<p role="status">${escapeHtml(s.confirmed)}</p>`
        : `<form method="post" action="?token=${encodeURIComponent(token)}"><button class="primary" type="submit">${escapeHtml(s.confirm_button)}</button></form>`);
    sendPage(res, 200, pageShell(s.confirm_title, body, nonce, language), csp(nonce));
  };

  router.get('/confirm', (req, res, next) => {
    const token = tokenOf(req);
    sheets
      .open(token, 'call_sheet_confirm')
      .then(
        (sheet) => page(res, sheet, token),
        (error) => refused(res, error),
      )
      .catch(next);
  });
  router.post('/confirm', form, (req, res, next) => {
    const token = tokenOf(req);
    sheets
      .confirm(token)
      .then(
        (sheet) => page(res, sheet, token),
        (error) => refused(res, error),
      )
      .catch(next);
  });
  router.get('/sheet', (req, res, next) => {
    sheets
      .pdf(tokenOf(req))
      .then(
        ({ sheet, pdf }) => {
          res.setHeader('Content-Type', 'application/pdf');
          res.setHeader('Content-Disposition', `inline; filename="call-sheet-${sheet.date}.pdf"`);
          res.setHeader('Cache-Control', 'no-store');
          res.setHeader('X-Content-Type-Options', 'nosniff');
          res.status(200).send(pdf);
        },
        (error) => refused(res, error),
      )
      .catch(next);
  });
  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'call-sheets', router, routes: [] };
}
