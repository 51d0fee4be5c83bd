/**
 * One SCIM request (RFC 7644) with the connector's bearer token, and what its failures
 * mean as stable codes: 401/403 is `connection_auth_failed` (final), a 4xx the directory
 * refused is `counterpart_rejected` (final, with its scimType), 429/5xx and a network error
 * are retried (`counterpart_unavailable`, `connection_unreachable`), and an answer that is
 * not SCIM JSON is `counterpart_invalid_response` (final: retrying will not fix it).
 */
import { destinationRefusedAtConnect, type ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { isDestinationRefused } from '../../platform/network/pinned-network';
import { DomainError, upstream } from '../../kernel/errors';
import type { ScimCredentials, ScimSettings } from './settings';

const TIMEOUT_MS = 10_000;
export const SCIM_MEDIA_TYPE = 'application/scim+json';

export interface ScimAnswer {
  status: number;
  body: Record<string, unknown> | undefined;
}

export function scimError(code: string, message: string, transient: boolean): DomainError {
  return transient ? upstream(code, message) : new DomainError('conflict', code, message);
}

/** Where a SCIM request goes: the connection's settings and token, through the pinned network for an organization's connection. */
export interface ScimTarget {
  settings: ScimSettings;
  credentials: ScimCredentials;
  network?: ConnectorNetwork | undefined;
}

export async function scimRequest(
  { settings, credentials, network }: ScimTarget,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  body?: object,
): Promise<ScimAnswer> {
  const url = `${settings.base_url.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    response = await (network?.fetch ?? fetch)(url, {
      method,
      headers: {
        authorization: `Bearer ${credentials.token}`,
        accept: `${SCIM_MEDIA_TYPE}, application/json`,
        ...(body ? { 'content-type': SCIM_MEDIA_TYPE } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    if (isDestinationRefused(error)) throw destinationRefusedAtConnect(error);
    throw scimError('connection_unreachable', `The SCIM server could not be reached: ${(error as Error).message}`.slice(0, 300), true);
  }
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const json = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  if (response.ok) {
    if (text && !json) throw scimError('counterpart_invalid_response', `The SCIM server answered ${response.status} with a body that is not SCIM JSON`, false);
    return { status: response.status, body: json };
  }
  const detail = typeof json?.detail === 'string' ? json.detail.slice(0, 200) : '';
  const scimType = typeof json?.scimType === 'string' ? json.scimType : undefined;
  if (response.status === 401 || response.status === 403)
    throw scimError('connection_auth_failed', `The SCIM server refused the token (${response.status})${detail ? `: ${detail}` : ''}`, false);
  if (response.status === 429 || response.status >= 500)
    throw scimError('counterpart_unavailable', `The SCIM server answered ${response.status}${detail ? `: ${detail}` : ''}`, true);
  return { status: response.status, body: json ? { ...json, ...(scimType ? { scimType } : {}) } : undefined };
}

/** A 4xx answer the caller did not expect: final, naming the directory's scimType. */
export function rejected(answer: ScimAnswer, what: string): DomainError {
  const scimType = typeof answer.body?.scimType === 'string' ? ` (${answer.body.scimType})` : '';
  const detail = typeof answer.body?.detail === 'string' ? `: ${answer.body.detail.slice(0, 200)}` : '';
  return scimError('counterpart_rejected', `The SCIM server refused ${what} with ${answer.status}${scimType}${detail}`, false);
}
