/**
 * The approval page behind the link the client's contact receives, mounted at
 * /v1/timesheet_review (no API key: the signed token is the credential).
 *
 *   GET  /?token=…   the week's shifts, hours and billed amount, and a form: a note, Approve, Reject (a GET decides nothing: scanners open links)
 *   POST /?token=…   decision=approve|reject, note: decides once (timesheet.approved / timesheet.rejected)
 *
 * A changed token answers a 400 page (link_invalid), an expired or superseded one 410.
 */
import express, { Router, type Request, type Response } from 'express';
import { isDomainError } from '../../../kernel/errors';
import { notFoundHandler } from '../../../platform/http/errors';
import { escapeHtml, newNonce, pageShell, sendPage } from '../../../platform/http/html';
import type { ApiRouter } from '../../../platform/http/route';
import type { RouterKit } from '../../../platform/http/router-kit';
import { hoursOf } from '../domain/overtime';
import type { Placement } from '../domain/placement';
import type { Timesheet } from '../domain/timesheet';
import type { TimesheetService } from '../domain/timesheet-service';
import { localDate } from '../domain/worked-days';

const csp = (nonce: string) => `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
const STATUS: Record<string, number> = { invalid: 400, not_found: 404, gone: 410 };
const tokenOf = (req: Request) => (typeof req.query.token === 'string' ? req.query.token.slice(0, 2000) : '');
const money = (cents: number, currency: string) => `${currency} ${(cents / 100).toFixed(2)}`;
const NOTE_MAX = 1000;

function timeOf(at: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
}

export function timesheetReviewRouter(service: TimesheetService, kit: RouterKit): ApiRouter {
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  const form = express.urlencoded({ extended: false, limit: '8kb' });

  const refused = (res: Response, error: unknown) => {
    if (!isDomainError(error) || !STATUS[error.kind]) throw error;
    const nonce = newNonce();
    const body = `<h1>This link cannot be used</h1><p>${escapeHtml(error.message)}</p><p class="muted">${escapeHtml(error.code)}</p>`;
    res.setHeader('X-Error-Code', error.code);
    sendPage(res, STATUS[error.kind]!, pageShell('This link cannot be used', body, nonce), csp(nonce));
  };

  const page = (
    res: Response,
    { timesheet: t, placement: p }: { timesheet: Timesheet; placement: Placement },
    token: string,
    status = 200,
    problem?: string,
  ) => {
    const nonce = newNonce();
    const rows = t.entries
      .map((e) => {
        const worked = Math.floor((Date.parse(e.end) - Date.parse(e.start)) / 60_000) - e.breakMinutes;
        return `<tr><td>${escapeHtml(localDate(new Date(e.start), p.timezone))}</td><td>${escapeHtml(timeOf(e.start, p.timezone))}</td><td>${escapeHtml(timeOf(e.end, p.timezone))}</td><td class="n">${e.breakMinutes}</td><td class="n">${hoursOf(Math.max(0, worked))}</td></tr>`;
      })
      .join('');
    const decided =
      t.status === 'approved' || t.status === 'rejected'
        ? `<p role="status">This timesheet was ${t.status === 'approved' ? 'approved' : 'rejected'}${t.decisionNote ? `: “${escapeHtml(t.decisionNote)}”` : ''}.</p>`
        : '';
    const formHtml =
      t.status === 'submitted'
        ? `<form method="post" action="?token=${encodeURIComponent(token)}">
${problem ? `<p role="alert" id="problem">${escapeHtml(problem)}</p>` : ''}
<p><label for="note">Note (optional; required to reject)</label><br><textarea id="note" name="note" rows="3" cols="50" maxlength="${NOTE_MAX}"${problem ? ' aria-describedby="problem"' : ''}></textarea></p>
<p><button class="primary" type="submit" name="decision" value="approve">Approve</button> <button type="submit" name="decision" value="reject">Reject</button></p>
</form>`
        : '';
    const body = `<h1>Timesheet: ${escapeHtml(p.workerName)}</h1>
<p>${escapeHtml(p.clientName)}, week of ${escapeHtml(t.periodStart)} to ${escapeHtml(t.periodEnd)} (times in ${escapeHtml(p.timezone)})</p>
<table><caption>Shifts</caption><thead><tr><th scope="col">Day</th><th scope="col">Start</th><th scope="col">End</th><th scope="col">Break (min)</th><th scope="col">Hours</th></tr></thead><tbody>${rows}</tbody></table>
<dl><dt>Regular hours</dt><dd>${hoursOf(t.split.regular)}</dd><dt>Overtime hours (1.5×)</dt><dd>${hoursOf(t.split.overtime)}</dd>${t.split.doubleTime ? `<dt>Double-time hours (2×)</dt><dd>${hoursOf(t.split.doubleTime)}</dd>` : ''}<dt>Amount billed</dt><dd>${escapeHtml(money(t.billCents, t.currency))}</dd></dl>
${decided}${formHtml}`;
    sendPage(res, status, pageShell(`Timesheet: ${p.workerName}`, body, nonce), csp(nonce));
  };

  router.get('/', (req, res, next) => {
    const token = tokenOf(req);
    service
      .review(token)
      .then(
        (found) => page(res, found, token),
        (error) => refused(res, error),
      )
      .catch(next);
  });
  router.post('/', form, (req, res, next) => {
    const token = tokenOf(req);
    const fields = (req.body ?? {}) as Record<string, unknown>;
    const decision = fields.decision === 'approve' || fields.decision === 'reject' ? fields.decision : undefined;
    const note = typeof fields.note === 'string' && fields.note.trim() ? fields.note.trim().slice(0, NOTE_MAX) : null;
    if (!decision || (decision === 'reject' && !note)) {
      service
        .review(token)
        .then(
          (found) => {
            res.setHeader('X-Error-Code', decision ? 'note_required' : 'decision_invalid');
            page(res, found, token, 400, decision ? 'Please say why in the note when you reject.' : 'Choose Approve or Reject.');
          },
          (error) => refused(res, error),
        )
        .catch(next);
      return;
    }
    service
      .decide(token, decision, note)
      .then(
        (found) => page(res, found, token),
        (error) => refused(res, error),
      )
      .catch(next);
  });
  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'timesheet-review', router, routes: [] };
}
