/**
 * A connection test's HTTP round trip for connectors that have no API call of their own to
 * try (Jitsi Meet, a room-URL template): GET the URL and classify what happened with the
 * stable connection codes. Never throws. It goes through the connection's pinned network
 * (every hop of a redirect checked) when it has one.
 */
import type { ConnectionTestOutcome } from '../../features/connections/domain/connector-definition';
import { refusedAtConnectOutcome, type ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { isDestinationRefused } from '../../platform/network/pinned-network';

const TIMEOUT_MS = 10_000;

export interface ProbeAnswer {
  status: number;
  body: string;
}

/** GETs `url`; answers the response (status and the first 64 KiB of its body) or a failed outcome. */
export async function probe(url: string, network?: ConnectorNetwork): Promise<ProbeAnswer | Extract<ConnectionTestOutcome, { ok: false }>> {
  try {
    const response = await (network?.fetch ?? fetch)(url, { redirect: 'follow', signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = (await response.text()).slice(0, 65_536);
    return { status: response.status, body };
  } catch (error) {
    if (isDestinationRefused(error)) return refusedAtConnectOutcome(error);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code ?? (error as { name?: string }).name ?? '';
    if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) return { ok: false, code: 'connection_tls_failed', message: `TLS failed for ${new URL(url).host}: ${code}` };
    return { ok: false, code: 'connection_unreachable', message: `${new URL(url).host} did not answer (${code || 'no response'})` };
  }
}

export const isFailure = (answer: ProbeAnswer | ConnectionTestOutcome): answer is Extract<ConnectionTestOutcome, { ok: false }> =>
  'ok' in answer && answer.ok === false;
