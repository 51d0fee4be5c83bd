/**
 * The connect flow's browser side: the popup (the usual way) and, when the browser blocks
 * it, the same flow in this tab (a form POST, so the service sees this page's Origin),
 * which comes back with a single-use result code in the URL fragment. That code is
 * accepted only with the nonce the element stored in sessionStorage before leaving, so no
 * link can plant a result, and is exchanged for the result once, from this origin.
 */
import { randomKey } from './api';
import { resultFromFragment } from './logic';

/** The `source` of every message the service's connect pages send. */
export const MESSAGE_SOURCE = 'hiring-integrations';
const POPUP_WIDTH = 520;
const POPUP_HEIGHT = 720;

/** The organization and listing the flow is for, named as the service's parameters are. */
export interface ConnectIds {
  organization_id: string;
  listing_id: string;
}

export interface Returned {
  code: string;
  clientState: string;
}

const stateKey = (ids: ConnectIds) => `profile-apply:${ids.organization_id}:${ids.listing_id}`;

/** Opens the connect popup centred over the page; null when the browser blocked it. */
export function openPopup(base: string, ids: ConnectIds): Window | null {
  const params = new URLSearchParams({ ...ids, origin: location.origin });
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - POPUP_WIDTH) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - POPUP_HEIGHT) / 3));
  try {
    return window.open(
      `${base}/v1/connect/profile?${params.toString()}`,
      `profile-apply-${ids.listing_id}`,
      `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`,
    );
  } catch {
    return null;
  }
}

/** Leaves for the flow in this tab, back to this page when done; false when sessionStorage is unavailable. */
export function continueInThisTab(base: string, ids: ConnectIds): boolean {
  const clientState = randomKey();
  try {
    sessionStorage.setItem(stateKey(ids), clientState);
  } catch {
    return false;
  }
  // A form POST, not a link: the browser sends this page's Origin, which the service checks
  // (together with return_to being a URL the organization registered) before it redirects.
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = `${base}/v1/connect/profile`;
  form.hidden = true;
  const fields = {
    ...ids,
    origin: location.origin,
    return_to: location.href.split('#')[0]!,
    client_state: clientState,
  };
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  return true;
}

/**
 * Back from the flow in this tab: the result in the URL fragment, if it carries the nonce
 * stored before leaving. Removed from the address bar at once, so the candidate token
 * stays out of history and bookmarks.
 */
export function takeReturnedResult(ids: ConnectIds): Returned | undefined {
  const data = resultFromFragment(location.hash);
  if (!data || typeof data.code !== 'string') return undefined;
  let expected: string | null = null;
  try {
    expected = sessionStorage.getItem(stateKey(ids));
  } catch {
    return undefined;
  }
  if (!expected || data.client_state !== expected) return undefined;
  sessionStorage.removeItem(stateKey(ids));
  history.replaceState(history.state, '', location.pathname + location.search);
  return { code: data.code, clientState: expected };
}

/** Trades the single-use code for the flow's result message (an error message when that fails). */
export async function exchangeReturnedResult(base: string, returned: Returned): Promise<unknown> {
  const failed = (code: string) => ({ source: MESSAGE_SOURCE, type: 'profile-apply:error', code, message: '' });
  try {
    const response = await fetch(`${base}/v1/connect/profile/result`, {
      method: 'POST',
      body: new URLSearchParams({ code: returned.code, client_state: returned.clientState }),
      credentials: 'omit',
    });
    const data: unknown = await response.json();
    return response.ok ? data : failed('state_mismatch');
  } catch {
    return failed('network_error');
  }
}
