/**
 * Where the API lives when the element has no `api-base` (first that applies): the script
 * tag's `data-api-base`; the base URL the plugin stamps into the script it serves (so a
 * copy served through a CDN still calls BASE_URL); the script's own URL minus
 * `/widgets/profile-apply.js`.
 */
import { baseFromScriptUrl, normalizeBase } from './logic';

/** Stamped by the plugin's widget router into the banner line of the served file. */
declare const PROFILE_APPLY_INJECTED_BASE: string | undefined;

export function defaultBase(): string | undefined {
  // Read while the script runs: document.currentScript is null afterwards.
  const script = (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[src*="profile-apply"]');
  const fromScript = script?.dataset.apiBase ? normalizeBase(script.dataset.apiBase) : undefined;
  if (fromScript) return fromScript;
  const injected = typeof PROFILE_APPLY_INJECTED_BASE === 'string' ? PROFILE_APPLY_INJECTED_BASE : '';
  if (injected && !injected.startsWith('__')) {
    const base = normalizeBase(injected);
    if (base) return base;
  }
  return script?.src ? baseFromScriptUrl(script.src) : undefined;
}
