/**
 * The opt-out link of a sourcing invitation, mounted at /v1/sourcing/unsubscribe (no API key:
 * the signed token is the credential).
 *
 *   GET  ?token=…   a page with one button; a GET never withdraws (mail scanners open links)
 *   POST ?token=…   withdraws the consent to be contacted again: the page's button, or a mail
 *                   client's RFC 8058 one-click POST (body `List-Unsubscribe=One-Click`)
 *
 * A changed or cut token answers a 400 page (link_invalid), an erased invitation 404. The
 * page is in the language the candidate applied in, as the invitation email is.
 */
import express, { Router, type Request, type Response } from 'express';
import { isDomainError } from '../../../kernel/errors';
import { escapeHtml, newNonce, pageShell, sendLinkRefusal, sendPage } from '../../../platform/http/html';
import { notFoundHandler } from '../../../platform/http/errors';
import type { ApiRouter } from '../../../platform/http/route';
import type { RouterKit } from '../../../platform/http/router-kit';
import { messageLanguage } from '../../messages/domain/message-language';
import { fillPage, PAGE_STRINGS } from '../../messages/domain/page-strings';
import { UNSUBSCRIBE_PAGE_STRINGS } from '../domain/unsubscribe-page-strings';
import type { OptOutTarget, SourcingService } from '../domain/sourcing-service';

const csp = (nonce: string) => `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
const STATUS: Record<string, number> = { invalid: 400, not_found: 404, gone: 410 };

/** a***@example.com: enough to recognise one's address, not enough to harvest a forwarded one. */
const masked = (email: string) => email.replace(/^(.)[^@]*/, '$1***');

export function sourcingUnsubscribeRouter(sourcing: SourcingService, kit: RouterKit): ApiRouter {
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  const form = express.urlencoded({ extended: false, limit: '2kb' });

  const page = async (req: Request, res: Response, act: (token: string) => Promise<OptOutTarget>) => {
    const nonce = newNonce();
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    try {
      const target = await act(token.slice(0, 2000));
      const language = messageLanguage(target.language ?? undefined);
      const s = UNSUBSCRIBE_PAGE_STRINGS[language.locale];
      const params = {
        organization: escapeHtml(target.organizationName),
        email: target.email ? escapeHtml(masked(target.email)) : escapeHtml(s.your_address),
      };
      const body = target.withdrawn
        ? `<h1>${escapeHtml(s.title)}</h1><p role="status">${fillPage(s.done, params)}</p>`
        : `<h1>${escapeHtml(s.title)}</h1><p>${fillPage(s.question, params)}</p>` +
          `<form method="post" action="?token=${encodeURIComponent(token)}"><button class="primary" type="submit">${escapeHtml(s.button)}</button></form>`;
      sendPage(res, 200, pageShell(s.title, body, nonce, language), csp(nonce));
    } catch (error) {
      if (!isDomainError(error) || !STATUS[error.kind]) throw error;
      const s = PAGE_STRINGS.en;
      const text = error.code === 'link_invalid' ? s.link_invalid : error.message;
      sendLinkRefusal(res, { status: STATUS[error.kind]!, code: error.code, title: s.link_invalid_title, text }, csp);
    }
  };

  router.get('/', (req, res, next) => page(req, res, (token) => sourcing.optOutTarget(token)).catch(next));
  router.post('/', form, (req, res, next) => page(req, res, (token) => sourcing.optOut(token)).catch(next));
  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'sourcing-unsubscribe', router, routes: [] };
}
