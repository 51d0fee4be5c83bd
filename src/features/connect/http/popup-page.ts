/**
 * The page the connect popup ends on. It posts one message to the opener, to exactly the
 * listing page's origin (never "*"), and closes. When no trusted origin is known it only
 * shows the error: its CSP then allows no script at all.
 */
import type { Response } from 'express';
import type { ConnectErrorCode, ReturnTo } from '../domain/connect-service';
import { escapeHtml, jsonForScript, newNonce, pageShell, sendPage } from '../../../platform/http/html';

export const MESSAGE_SOURCE = 'hiring-integrations';

export interface AuthorizedMessage {
  source: typeof MESSAGE_SOURCE;
  type: 'profile-apply:authorized';
  candidate_token: string;
  expires_at: string;
  profile_user_id: string;
  organization_id: string;
  listing_id: string;
  candidate: { name: string; headline: string | null; profile_url: string };
  /** The candidate already applied to this listing: the widget says so instead of showing the form. */
  already_applied?: { application_id: string; applied_at: string };
}

export interface ErrorMessage {
  source: typeof MESSAGE_SOURCE;
  type: 'profile-apply:error';
  code: ConnectErrorCode;
  message: string;
}

export type PopupMessage = AuthorizedMessage | ErrorMessage;

export const errorMessage = (code: ConnectErrorCode, message: string): ErrorMessage => ({ source: MESSAGE_SOURCE, type: 'profile-apply:error', code, message });

const RESULT_ELEMENT_ID = 'hi-popup-result';

const heading = (message: PopupMessage) => (message.type === 'profile-apply:authorized' ? 'Connected' : 'Could not connect your profile');

/** A page whose one inline script (`script`, allowed by its nonce) hands the result on. */
function sendScriptPage(res: Response, message: PopupMessage, content: string, script: (nonce: string) => string): void {
  const nonce = newNonce();
  const body = `<h1>${heading(message)}</h1>${content}\n${script(nonce)}`;
  sendPage(
    res,
    200,
    pageShell('Profile apply', body, nonce),
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  );
}

/** Posts `message` to `targetOrigin` and closes; the message also sits in a JSON data block for tests and debugging. */
export function sendPostingPage(res: Response, message: PopupMessage, targetOrigin: string): void {
  const text = message.type === 'profile-apply:authorized' ? 'Profile connected. You can return to the application.' : message.message;
  sendScriptPage(
    res,
    message,
    `<p>${escapeHtml(text)}</p>\n<script type="application/json" id="${RESULT_ELEMENT_ID}">${jsonForScript({ target_origin: targetOrigin, message })}</script>`,
    (nonce) =>
      `<script nonce="${nonce}">(function(){var r=JSON.parse(document.getElementById('${RESULT_ELEMENT_ID}').textContent);if(window.opener){window.opener.postMessage(r.message,r.target_origin);}window.close();})();</script>`,
  );
}

/** The fragment that carries the result back to the listing page in redirect mode. */
export const RESULT_FRAGMENT = 'profile-apply-result';
const RETURN_ELEMENT_ID = 'hi-return';

/**
 * Redirect mode (the browser blocked the popup): back to the listing page with a single-use
 * result code, and the widget's client_state, in the URL fragment; the widget exchanges the
 * code for the result (`POST /v1/connect/profile/result`), so no token ever travels in a URL.
 * A fragment never reaches a server or a Referer header, and the widget removes it from the
 * address bar as it reads it. A page that navigates, not an HTTP redirect: the provider's
 * consent form may restrict where its submission may be redirected (CSP form-action).
 */
export function sendReturnPage(res: Response, message: PopupMessage, code: string, returnTo: ReturnTo): void {
  const payload = Buffer.from(JSON.stringify({ code, client_state: returnTo.clientState })).toString('base64url');
  const url = `${returnTo.url}#${RESULT_FRAGMENT}=${payload}`;
  sendScriptPage(
    res,
    message,
    `<p>Taking you back to the job listing… <a href="${escapeHtml(url)}">Continue</a></p>\n<script type="application/json" id="${RETURN_ELEMENT_ID}">${jsonForScript({ url })}</script>`,
    (nonce) => `<script nonce="${nonce}">location.replace(JSON.parse(document.getElementById('${RETURN_ELEMENT_ID}').textContent).url);</script>`,
  );
}

/** Shows an error without telling any window about it. */
export function sendShowOnlyPage(res: Response, status: number, code: ConnectErrorCode, message: string): void {
  const nonce = newNonce();
  const body = `<h1>Could not connect your profile</h1><p>${escapeHtml(message)}</p><p class="muted">Error code: ${escapeHtml(code)}</p>`;
  sendPage(
    res,
    status,
    pageShell('Profile apply', body, nonce),
    `default-src 'none'; script-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  );
}
