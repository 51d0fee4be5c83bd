/**
 * Square's REST API (JSON, Bearer token, Square-Version header) and what its failures mean as
 * stable codes: 401/403 `connection_auth_failed` (final); another 4xx `counterpart_rejected`
 * with Square's own error code (final); 429 and 5xx `counterpart_unavailable` and network
 * trouble `connection_unreachable` (retried); a success that is not the JSON Square documents
 * `counterpart_invalid_response` (final).
 */
import { destinationRefusedAtConnect, type ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { isDestinationRefused } from '../../platform/network/pinned-network';
import { DomainError, upstream } from '../../kernel/errors';
import type { SquareCredentials, SquareSettings } from './settings';
import { readJson } from '../../platform/http-client/read-json';

const TIMEOUT_MS = 10_000;

export class SquareClient {
  constructor(
    private readonly settings: SquareSettings,
    private readonly credentials: SquareCredentials,
    /** The pinned network for an organization's connection; the global fetch otherwise. */
    private readonly network?: ConnectorNetwork,
  ) {}

  async call<T extends object>(method: 'GET' | 'POST' | 'PUT', path: string, what: string, body?: object): Promise<T> {
    let response: Response;
    try {
      response = await (this.network?.fetch ?? fetch)(new URL(path, this.settings.api_base_url), {
        method,
        headers: {
          authorization: `Bearer ${this.credentials.access_token}`,
          'square-version': this.settings.square_version,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      if (isDestinationRefused(error)) throw destinationRefusedAtConnect(error);
      throw upstream('connection_unreachable', `Square could not be reached for ${what}`);
    }
    const parsed = await readJson(response);
    const squareCode = (parsed as { errors?: { code?: unknown }[] } | undefined)?.errors?.[0]?.code;
    const detail = typeof squareCode === 'string' ? ` (${squareCode.slice(0, 80)})` : '';
    if (response.status === 401 || response.status === 403)
      throw new DomainError('conflict', 'connection_auth_failed', `Square refused the access token for ${what}${detail}`);
    if (response.status === 429 || response.status >= 500) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw upstream('counterpart_unavailable', `Square answered ${response.status} to ${what}${detail}`, {
        ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
      });
    }
    if (response.status >= 400)
      throw new DomainError('conflict', 'counterpart_rejected', `Square refused ${what}: ${response.status}${detail}`, { square_code: squareCode ?? null });
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new DomainError('conflict', 'counterpart_invalid_response', `Square answered ${what} with something other than a JSON object`);
    return parsed as T;
  }
}
