/**
 * An organization's profile apply settings: whether the button works, on which listing
 * page origins the widget may run (the popup posts its result to exactly one of them),
 * and how the button looks.
 */
import { invalid } from '../../../kernel/errors';

export type ProfileApplyTheme = 'light' | 'dark' | 'auto';

export const PROFILE_APPLY_THEMES: readonly ProfileApplyTheme[] = ['light', 'dark', 'auto'];
export const DEFAULT_BUTTON_TEXT = 'Apply with profile';
export const DEFAULT_THEME: ProfileApplyTheme = 'light';
export const MAX_ALLOWED_ORIGINS = 20;
export const MAX_BUTTON_TEXT_LENGTH = 60;

export interface ProfileApplySettings {
  organizationId: string;
  enabled: boolean;
  allowedOrigins: string[];
  /** Redirect mode: the exact listing page URLs the connect flow may return to. */
  returnUrls: string[];
  buttonText: string;
  theme: ProfileApplyTheme;
  updatedAt: Date | null;
}

export interface ProfileApplySettingsChange {
  enabled?: boolean;
  allowedOrigins?: string[];
  returnUrls?: string[];
  buttonText?: string;
  theme?: ProfileApplyTheme;
}

export function defaultSettings(organizationId: string): ProfileApplySettings {
  return { organizationId, enabled: false, allowedOrigins: [], returnUrls: [], buttonText: DEFAULT_BUTTON_TEXT, theme: DEFAULT_THEME, updatedAt: null };
}

export interface OriginPolicy {
  /** http:// origins on loopback hosts (a developer's machine); never in production. */
  allowLoopbackHttp: boolean;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An origin is scheme://host[:port] and nothing else. https always; http only for
 * loopback hosts, and only outside production. Returns the normalized (lower-case) form.
 */
export function normalizeOrigin(value: string, policy: OriginPolicy, param = 'origin'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('parameter_invalid', `Invalid ${param}: expected an origin such as https://jobs.example.com`, param);
  }
  const bare = `${url.protocol}//${url.host}`;
  const extra = url.username || url.password || url.search || url.hash || /[?#]/.test(value) || (url.pathname !== '/' && url.pathname !== '');
  if (extra) {
    throw invalid('parameter_invalid', `Invalid ${param}: an origin is scheme://host[:port], without path, query or credentials`, param);
  }
  if (url.protocol === 'https:') return bare;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && policy.allowLoopbackHttp) return bare;
  throw invalid(
    'parameter_invalid',
    `Invalid ${param}: origins must use https${policy.allowLoopbackHttp ? ' (http is accepted for localhost and 127.0.0.1 only)' : ''}`,
    param,
  );
}

/** A listing page URL for redirect mode: http(s), on an acceptable origin, no credentials or fragment. */
export function normalizeReturnUrl(value: string, policy: OriginPolicy, param: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('parameter_invalid', `Invalid ${param}: expected a page URL such as https://jobs.example.com/listing/42`, param);
  }
  if (url.username || url.password || url.hash || value.includes('#')) {
    throw invalid('parameter_invalid', `Invalid ${param}: a return URL has no credentials and no fragment`, param);
  }
  normalizeOrigin(`${url.protocol}//${url.host}`, policy, param);
  return url.toString();
}

/** Exact match, after the same normalization as at registration. */
export function isReturnUrlRegistered(settings: ProfileApplySettings | undefined, url: string | undefined): boolean {
  if (!url || !settings) return false;
  try {
    return settings.returnUrls.includes(new URL(url).toString());
  } catch {
    return false;
  }
}

export function applyChange(current: ProfileApplySettings, change: ProfileApplySettingsChange, policy: OriginPolicy, now: Date): ProfileApplySettings {
  const next = { ...current, updatedAt: now };
  if (change.enabled !== undefined) next.enabled = change.enabled;
  if (change.allowedOrigins !== undefined) {
    if (change.allowedOrigins.length > MAX_ALLOWED_ORIGINS) {
      throw invalid('parameter_invalid', `At most ${MAX_ALLOWED_ORIGINS} allowed origins`, 'profile_apply.allowed_origins');
    }
    const origins = change.allowedOrigins.map((o, i) => normalizeOrigin(o, policy, `profile_apply.allowed_origins.${i}`));
    next.allowedOrigins = [...new Set(origins)];
  }
  if (change.returnUrls !== undefined) {
    if (change.returnUrls.length > MAX_ALLOWED_ORIGINS) {
      throw invalid('parameter_invalid', `At most ${MAX_ALLOWED_ORIGINS} return URLs`, 'profile_apply.return_urls');
    }
    next.returnUrls = [...new Set(change.returnUrls.map((u, i) => normalizeReturnUrl(u, policy, `profile_apply.return_urls.${i}`)))];
  }
  // A return URL given must be on an allowed origin. (One left on an origin removed later is
  // inert: the flow starts only from an allowed origin.)
  const stray = change.returnUrls === undefined ? -1 : next.returnUrls.findIndex((u) => !next.allowedOrigins.includes(new URL(u).origin));
  if (stray >= 0) {
    throw invalid('parameter_invalid', 'Each return URL must be on one of allowed_origins', `profile_apply.return_urls.${stray}`);
  }
  if (change.buttonText !== undefined) {
    const text = change.buttonText.trim();
    if (text.length === 0 || text.length > MAX_BUTTON_TEXT_LENGTH) {
      throw invalid('parameter_invalid', `button_text must be 1 to ${MAX_BUTTON_TEXT_LENGTH} characters`, 'profile_apply.button_text');
    }
    next.buttonText = text;
  }
  if (change.theme !== undefined) {
    if (!PROFILE_APPLY_THEMES.includes(change.theme)) {
      throw invalid('parameter_invalid', `theme must be one of ${PROFILE_APPLY_THEMES.join(', ')}`, 'profile_apply.theme');
    }
    next.theme = change.theme;
  }
  return next;
}

/** Exact match: the origin a popup posts to must be one the organization listed. */
export function isOriginAllowed(settings: ProfileApplySettings | undefined, origin: string | undefined): boolean {
  return Boolean(origin && settings && settings.allowedOrigins.includes(origin));
}

export interface ProfileApplySettingsRepository {
  find(organizationId: string): Promise<ProfileApplySettings | undefined>;
  save(settings: ProfileApplySettings): Promise<void>;
}

export const PROFILE_APPLY_SETTINGS_REPOSITORY = Symbol('ProfileApplySettingsRepository');
export const ORIGIN_POLICY = Symbol('OriginPolicy');
