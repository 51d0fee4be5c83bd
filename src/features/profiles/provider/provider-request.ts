/** One HTTP request to the profile provider, with a deadline; no answer in time, a network error, 5xx or 429 mean "unavailable". */
import { keepAliveFetch, type HttpAnswer, type HttpInit } from '../../../platform/http-client/keep-alive-fetch';
import type { ProviderFailures } from './provider-failures';

/** Over kept-alive connections (keep-alive-fetch.ts): one handshake per socket, not per request. */
export async function requestProvider(failures: ProviderFailures, step: string, url: string, init: HttpInit, timeoutMs: number): Promise<HttpAnswer> {
  let response: HttpAnswer;
  try {
    response = await keepAliveFetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const name = (error as Error).name;
    throw failures.unavailable(step, { reason: name === 'TimeoutError' || name === 'AbortError' ? `timed out after ${timeoutMs} ms` : 'failed (network)' });
  }
  if (response.status >= 500 || response.status === 429) {
    await response.body?.cancel();
    throw failures.unavailable(step, { status: response.status });
  }
  return response;
}

/** The body as JSON, or undefined when it is not JSON. */
export async function jsonBody(response: HttpAnswer): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}
