/**
 * The unsubscribe link of status updates, mounted at /v1/messages (no API key: the signed
 * token is the credential).
 *
 *   GET  /unsubscribe?token=…   a page in the recipient's language with one button; a GET
 *                               never unsubscribes (mail scanners open links)
 *   POST /unsubscribe?token=…   unsubscribes: the page's button, or a mail client's RFC 8058
 *                               one-click POST (body `List-Unsubscribe=One-Click`)
 *
 * A changed or cut token answers a 400 page (link_invalid), an erased record 404.
 */
import express, { Router, type Request, type Response } from 'express';
import { isDomainError } from '../../../kernel/errors';
import { escapeHtml, newNonce, pageShell, sendLinkRefusal, sendPage } from '../../../platform/http/html';
import { notFoundHandler } from '../../../platform/http/errors';
import type { ApiRouter } from '../../../platform/http/route';
import type { RouterKit } from '../../../platform/http/router-kit';
import { messageLanguage } from '../../messages/domain/message-language';
import { fillPage, PAGE_STRINGS } from '../../messages/domain/page-strings';
import type { OrganizationRepository } from '../../organizations/domain/ports';
import type { UnsubscribeTarget, StatusUpdates } from '../domain/status-updates';

const csp = (nonce: string) => `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
const STATUS: Record<string, number> = { invalid: 400, not_found: 404, gone: 410 };

/** a***@example.com: enough to recognise one's address, not enough to harvest a forwarded one. */
const masked = (email: string) => email.replace(/^(.)[^@]*/, '$1***');

export function unsubscribeRouter(updates: StatusUpdates, organizations: OrganizationRepository, kit: RouterKit): ApiRouter {
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  const form = express.urlencoded({ extended: false, limit: '2kb' });

  const page = async (req: Request, res: Response, act: (token: string) => Promise<UnsubscribeTarget>) => {
    const nonce = newNonce();
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    try {
      const target = await act(token.slice(0, 2000));
      const language = messageLanguage(target.update.language);
      const s = PAGE_STRINGS[language.locale];
      const organization = (await organizations.findById(target.update.organizationId))?.name ?? '';
      const params = { email: escapeHtml(masked(target.update.recipientEmail)), organization: escapeHtml(organization) };
      const body = target.unsubscribed
        ? `<h1>${escapeHtml(s.unsubscribe_title)}</h1><p role="status">${fillPage(s.unsubscribed, params)}</p>`
        : `<h1>${escapeHtml(s.unsubscribe_title)}</h1><p>${fillPage(s.unsubscribe_question, params)}</p>` +
          `<form method="post" action="?token=${encodeURIComponent(token)}"><button class="primary" type="submit">${escapeHtml(s.unsubscribe_button)}</button></form>`;
      sendPage(res, 200, pageShell(s.unsubscribe_title, body, nonce, language), csp(nonce));
    } catch (error) {
      if (!isDomainError(error) || !STATUS[error.kind]) throw error;
      const s = PAGE_STRINGS.en;
      const text = error.code === 'link_invalid' ? s.link_invalid : error.message;
      sendLinkRefusal(res, { status: STATUS[error.kind]!, code: error.code, title: s.link_invalid_title, text }, csp);
    }
  };

  router.get('/unsubscribe', (req, res, next) => page(req, res, (token) => updates.target(token)).catch(next));
  router.post('/unsubscribe', form, (req, res, next) => page(req, res, (token) => updates.unsubscribe(token)).catch(next));
  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'messages', router, routes: [] };
}
