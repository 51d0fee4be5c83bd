/**
 * The candidate's scheduling page, mounted at /v1/schedule (no account, no API key: the signed
 * token is the credential). Server-rendered HTML in the candidate's language and time zone,
 * one form of radio buttons grouped by day, usable at 390 px and with a keyboard.
 *
 *   GET  /?token=…                   the open times, or the booked one (opening it books nothing)
 *   POST /?token=…  action=book      books `start` (or moves the booked interview there)
 *   POST /?token=…  action=cancel    cancels the booked interview
 *
 * A time someone else just took answers 409 with the page and the times left.
 */
import express, { Router, type Request, type Response } from 'express';
import { DateTime } from 'luxon';
import { isDomainError } from '../../../kernel/errors';
import { escapeHtml, newNonce, pageShell, sendLinkRefusal, sendPage } from '../../../platform/http/html';
import { notFoundHandler } from '../../../platform/http/errors';
import type { ApiRouter } from '../../../platform/http/route';
import type { RouterKit } from '../../../platform/http/router-kit';
import { formatMoment, messageLanguage, type MessageLanguage } from '../../messages/domain/message-language';
import { fillPage, PAGE_STRINGS } from '../../messages/domain/page-strings';
import type { TimeRange } from '../domain/calendar-port';
import { SCHEDULING_PAGE_STRINGS } from '../domain/page-strings';
import type { SchedulingRequests, SchedulingView } from '../domain/scheduling-requests';

const csp = (nonce: string) => `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
const STATUS: Record<string, number> = { invalid: 400, not_found: 404, conflict: 409, gone: 410, upstream: 503 };
const tokenOf = (req: Request) => (typeof req.query.token === 'string' ? req.query.token.slice(0, 2000) : '');
const PAGE_CSS =
  'fieldset{border:1px solid var(--line);border-radius:6px;margin:1rem 0;padding:.5rem .75rem}legend{font-weight:600;padding:0 .25rem}' +
  '.slots{display:grid;grid-template-columns:repeat(auto-fill,minmax(7.5rem,1fr));gap:.5rem}' +
  '.slots label{display:flex;gap:.5rem;align-items:center;min-height:44px;padding:0 .6rem;border:1px solid var(--line);border-radius:6px;cursor:pointer}' +
  '.slots input{width:1.2rem;height:1.2rem;margin:0}.slots input:focus-visible{outline:3px solid var(--ring);outline-offset:2px}' +
  '.alert{border-left:4px solid var(--accent);padding:.25rem .75rem}';

function slotsForm(view: SchedulingView, language: MessageLanguage, token: string, error?: string): string {
  const s = SCHEDULING_PAGE_STRINGS[language.locale];
  const zone = view.request.timezone;
  const days = new Map<string, TimeRange[]>();
  for (const slot of view.slots) {
    const day = DateTime.fromJSDate(slot.start, { zone }).toISODate()!;
    days.set(day, [...(days.get(day) ?? []), slot]);
  }
  let n = 0;
  const fieldsets = [...days.values()]
    .map((slots) => {
      const legend = escapeHtml(formatMoment(slots[0]!.start, language, zone, 'date'));
      const options = slots
        .map((slot) => {
          const id = `slot-${n++}`;
          const time = new Intl.DateTimeFormat(language.tag, { timeStyle: 'short', timeZone: zone }).format(slot.start);
          return `<label for="${id}"><input type="radio" id="${id}" name="start" value="${slot.start.toISOString()}" required>${escapeHtml(time)}</label>`;
        })
        .join('');
      return `<fieldset><legend>${legend}</legend><div class="slots">${options}</div></fieldset>`;
    })
    .join('');
  const moving = view.booked !== undefined;
  return (
    (moving ? `<h2>${escapeHtml(s.move_heading)}</h2>` : '') +
    `<form method="post" action="?token=${encodeURIComponent(token)}" aria-label="${escapeHtml(s.choose)}"${error ? ' aria-describedby="alert"' : ''}>` +
    `<input type="hidden" name="action" value="book">${fieldsets}` +
    `<button class="primary" type="submit">${escapeHtml(moving ? s.move : s.book)}</button></form>`
  );
}

function render(view: SchedulingView, token: string, error?: string): string {
  const language = messageLanguage(view.request.language);
  const s = SCHEDULING_PAGE_STRINGS[language.locale];
  const nonce = newNonce();
  const organization = escapeHtml(view.organizationName);
  const params = {
    title: escapeHtml(view.request.title),
    organization,
    duration: String(view.request.durationMinutes),
    timezone: escapeHtml(view.request.timezone),
  };
  let body = `<style nonce="${nonce}">${PAGE_CSS}</style><h1>${escapeHtml(s.title)}</h1><p>${fillPage(s.intro, params)}</p>`;
  if (error) body += `<p class="alert" id="alert" role="alert">${escapeHtml(error)}</p>`;
  if (view.request.status === 'cancelled')
    body +=
      view.request.cancellation?.by === 'host'
        ? `<p role="status">${fillPage(s.withdrawn, { organization })}</p>`
        : `<p role="status">${escapeHtml(s.cancelled)}</p>`;
  else {
    if (view.booked)
      body += `<p role="status">${fillPage(s.booked, { when: escapeHtml(formatMoment(view.booked.start, language, view.request.timezone)) })}</p>`;
    body += view.slots.length > 0 ? slotsForm(view, language, token, error) : view.booked ? '' : `<p>${fillPage(s.none, { organization })}</p>`;
    if (view.booked)
      body += `<form method="post" action="?token=${encodeURIComponent(token)}"><input type="hidden" name="action" value="cancel"><button type="submit">${escapeHtml(s.cancel)}</button></form>`;
  }
  return pageShell(s.title, body, nonce, language);
}

export function schedulingPageRouter(scheduling: SchedulingRequests, kit: RouterKit): ApiRouter {
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  const form = express.urlencoded({ extended: false, limit: '2kb' });

  const refused = (res: Response, error: unknown) => {
    if (!isDomainError(error) || !STATUS[error.kind]) throw error;
    const s = PAGE_STRINGS.en;
    const text = error.code === 'scheduling_link_invalid' ? s.link_invalid : error.message;
    const retryAfterSeconds = error.details.retryAfterSeconds as number | undefined;
    sendLinkRefusal(res, { status: STATUS[error.kind]!, code: error.code, title: s.link_invalid_title, text, retryAfterSeconds }, csp);
  };
  const show = (res: Response, status: number, view: SchedulingView, token: string, error?: string) => {
    const html = render(view, token, error);
    const nonce = /nonce="([^"]+)"/.exec(html)![1]!;
    sendPage(res, status, html, csp(nonce));
  };

  router.get('/', (req, res, next) => {
    const token = tokenOf(req);
    scheduling
      .view(token)
      .then(
        (view) => show(res, 200, view, token),
        (error) => refused(res, error),
      )
      .catch(next);
  });

  router.post('/', form, (req, res, next) => {
    const token = tokenOf(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const action = body.action === 'cancel' ? 'cancel' : 'book';
    const start = typeof body.start === 'string' ? new Date(body.start.slice(0, 40)) : undefined;
    const attempt = async () => {
      if (action === 'cancel') return show(res, 200, await scheduling.cancel(token), token);
      if (!start || Number.isNaN(start.getTime())) {
        const view = await scheduling.view(token);
        const s = SCHEDULING_PAGE_STRINGS[messageLanguage(view.request.language).locale];
        res.setHeader('X-Error-Code', 'slot_required');
        return show(res, 400, view, token, s.pick_one);
      }
      try {
        return show(res, 200, await scheduling.book(token, start), token);
      } catch (error) {
        // The time went (or never was offered): the page again, with what is left.
        if (!isDomainError(error) || !['slot_taken', 'slot_unavailable', 'booking_in_progress', 'slot_not_offered'].includes(error.code)) throw error;
        const view = await scheduling.view(token);
        const s = SCHEDULING_PAGE_STRINGS[messageLanguage(view.request.language).locale];
        res.setHeader('X-Error-Code', error.code);
        return show(
          res,
          error.kind === 'conflict' ? 409 : 400,
          view,
          token,
          error.code === 'slot_taken'
            ? s.slot_taken
            : error.code === 'slot_unavailable'
              ? s.slot_unavailable
              : error.code === 'booking_in_progress'
                ? s.booking_in_progress
                : s.pick_one,
        );
      }
    };
    attempt()
      .catch((error: unknown) => refused(res, error))
      .catch(next);
  });

  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'scheduling-pages', router, routes: [] };
}
