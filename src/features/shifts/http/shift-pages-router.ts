/**
 * The person's pages (no API key: the signed token is the credential).
 *
 *   /v1/shifts/confirm   GET ?token=…  the shift in the person's language and zone, "I will be there" / "I cannot make it"
 *                        POST ?token=… decision=confirmed|declined, sequence=N (a GET never answers: scanners open links)
 *   /v1/shifts/feed      GET /{token}.ics  their upcoming shifts as text/calendar (webcal:// subscriptions)
 *
 * A changed token answers 400 (link_invalid), an expired one 410 (link_expired), a rotated
 * feed link 410 (link_revoked).
 */
import express, { Router, type Request, type Response } from 'express';
import { isDomainError } from '../../../kernel/errors';
import { escapeHtml, newNonce, pageShell, sendLinkRefusal, sendPage } from '../../../platform/http/html';
import { notFoundHandler } from '../../../platform/http/errors';
import type { ApiRouter } from '../../../platform/http/route';
import type { RouterKit } from '../../../platform/http/router-kit';
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import { PAGE_STRINGS } from '../../messages/domain/page-strings';
import type { Shift } from '../domain/shift';
import { SHIFT_STRINGS } from '../domain/shift-strings';
import type { RespondOutcome, Shifts } from '../domain/shifts';

const csp = (nonce: string) => `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
const STATUS: Record<string, number> = { invalid: 400, not_found: 404, gone: 410 };
const tokenOf = (req: Request) => (typeof req.query.token === 'string' ? req.query.token.slice(0, 2000) : '');

function refuse(res: Response, error: unknown, asPage: boolean): void {
  if (!isDomainError(error) || !STATUS[error.kind]) throw error;
  res.setHeader('X-Error-Code', error.code);
  if (!asPage) {
    res.status(STATUS[error.kind]!).type('text/plain').send(`${error.code}: ${error.message}\n`);
    return;
  }
  const s = PAGE_STRINGS.en;
  const text = error.code === 'link_invalid' ? s.link_invalid : error.message;
  sendLinkRefusal(res, { status: STATUS[error.kind]!, code: error.code, title: s.link_invalid_title, text }, csp);
}

function page(res: Response, shift: Shift, token: string, outcome?: RespondOutcome): void {
  const nonce = newNonce();
  const language = messageLanguage(shift.employee.language);
  const s = SHIFT_STRINGS[language.locale];
  const zone = shift.employee.timezone;
  const when = `${formatMoment(shift.startsAt, language, zone)} – ${formatMoment(shift.endsAt, language, zone, 'time')}`;
  const rows: [string, string][] = [
    [s.when, when],
    [s.where, shift.location],
    ...(shift.role ? [[s.role, shift.role] as [string, string]] : []),
    ...(shift.notes ? [[s.notes, shift.notes] as [string, string]] : []),
  ];
  const details = `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
  let status = '';
  if (shift.status === 'cancelled') status = s.cancelled;
  else if (outcome === 'changed') status = s.changed;
  else if (shift.response === 'confirmed') status = s.confirmed;
  else if (shift.response === 'declined') status = s.declined;
  const action = `?token=${encodeURIComponent(token)}`;
  const form = (decision: 'confirmed' | 'declined', label: string, primary: boolean) =>
    `<form method="post" action="${action}"><input type="hidden" name="decision" value="${decision}"><input type="hidden" name="sequence" value="${shift.sequence}"><button${primary ? ' class="primary"' : ''} type="submit">${escapeHtml(label)}</button></form>`;
  const body =
    `<h1>${escapeHtml(s.page_title)}</h1>${details}` +
    (status ? `<p role="status">${escapeHtml(status)}</p>` : '') +
    (shift.status === 'cancelled'
      ? ''
      : `<h2>${escapeHtml(s.page_question)}</h2>${form('confirmed', s.confirm_button, true)}${form('declined', s.decline_button, false)}`);
  sendPage(res, outcome === 'changed' ? 409 : 200, pageShell(s.page_title, body, nonce, language), csp(nonce));
}

export function shiftConfirmRouter(shifts: Shifts, kit: RouterKit): ApiRouter {
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  const form = express.urlencoded({ extended: false, limit: '2kb' });
  router.get('/', (req, res, next) => {
    const token = tokenOf(req);
    shifts
      .open(token)
      .then(
        (shift) => page(res, shift, token),
        (error) => refuse(res, error, true),
      )
      .catch(next);
  });
  router.post('/', form, (req, res, next) => {
    const token = tokenOf(req);
    const fields = (req.body ?? {}) as Record<string, unknown>;
    const decision = fields.decision === 'declined' ? 'declined' : fields.decision === 'confirmed' ? 'confirmed' : undefined;
    const sequence = typeof fields.sequence === 'string' && /^\d{1,9}$/.test(fields.sequence) ? Number(fields.sequence) : undefined;
    if (!decision || sequence === undefined) {
      // Check the link first: a tampered link is link_invalid whatever the form says.
      shifts
        .open(token)
        .then(
          (shift) => page(res, shift, token),
          (error) => refuse(res, error, true),
        )
        .catch(next);
      return;
    }
    shifts
      .respond(token, decision, sequence)
      .then(
        ({ shift, outcome }) => page(res, shift, token, outcome),
        (error) => refuse(res, error, true),
      )
      .catch(next);
  });
  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'shift-confirm', router, routes: [] };
}

export function shiftFeedRouter(shifts: Shifts, kit: RouterKit): ApiRouter {
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  router.get('/:file', (req, res, next) => {
    const match = /^([A-Za-z0-9_-]{1,2000}\.[A-Za-z0-9_-]{1,100})\.ics$/.exec(String(req.params.file));
    shifts
      .feed(match?.[1] ?? '')
      .then(
        (ics) => {
          res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
          res.setHeader('Content-Disposition', 'inline; filename="shifts.ics"');
          res.setHeader('Cache-Control', 'private, max-age=300');
          res.setHeader('X-Content-Type-Options', 'nosniff');
          res.status(200).send(ics);
        },
        (error) => refuse(res, error, false),
      )
      .catch(next);
  });
  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'shift-feed', router, routes: [] };
}
