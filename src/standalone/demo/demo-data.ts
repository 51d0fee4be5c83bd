/**
 * First-run demo data for `npm start`: an organization, its API key and an open listing,
 * so there is something to click. The key is kept in DATA_DIR/demo-credentials.json
 * (mode 0600) because it can be shown only once otherwise; never in production.
 */
import { announceCacheChange } from '../../platform/caching/announce-change';
import { SETTINGS_CACHE } from '../../features/applications/storage/cached-settings';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../kernel/config';
import { ACCEPT_APPLICATION } from '../../features/licensing/domain/entitlements';
import type { OrganizationService } from '../../features/organizations/domain/organization-service';
import type { ListingsStore } from '../host/listings-store';
import { applyChange, defaultSettings } from '../../features/applications/domain/profile-apply-settings';
import type { Database } from '../../platform/database/database';
import { KnexProfileApplySettingsRepository } from '../../features/applications/storage/profile-apply-settings-repository';

export interface DemoCredentials {
  organization_id: string;
  api_key: string;
  listing_id: string;
}

export const DEMO_QUESTIONS = [
  { key: 'years_experience', label: 'Years of professional experience', type: 'number', required: true },
  { key: 'work_authorization', label: 'Are you authorized to work in this country?', type: 'boolean', required: true },
  { key: 'start_date', label: 'When could you start?', type: 'select', required: false, options: ['Immediately', 'Within a month', 'Later'] },
];

/**
 * Where the demo's credentials are kept: beside the embedded database, or, on PostgreSQL,
 * in a folder of DATA_DIR named after the database, so a PostgreSQL run never overwrites
 * the embedded demo's (or another database's) credentials.
 */
export function demoCredentialsFile(config: Config): string {
  if (!config.databaseUrl) return path.join(config.dataDir, 'demo-credentials.json');
  const database = createHash('sha256').update(config.databaseUrl).digest('hex').slice(0, 12);
  return path.join(config.dataDir, `postgres-${database}`, 'demo-credentials.json');
}

/** Whether `serve` seeds and serves the demo: DEMO_ENABLED or --demo, else only in embedded mode; never in production. */
export function demoEnabled(config: Config, requested?: boolean): boolean {
  if (config.env === 'production') return false;
  return requested ?? config.demoEnabled ?? !config.databaseUrl;
}

export function readDemoCredentials(config: Config): DemoCredentials | undefined {
  try {
    const saved = JSON.parse(readFileSync(demoCredentialsFile(config), 'utf8')) as Partial<DemoCredentials>;
    return saved.organization_id && saved.listing_id && saved.api_key ? (saved as DemoCredentials) : undefined;
  } catch {
    return undefined;
  }
}

export async function ensureDemoData(
  config: Config,
  organizations: OrganizationService,
  listings: ListingsStore,
  db: Database,
): Promise<DemoCredentials | undefined> {
  if (config.env === 'production') return undefined;
  const file = demoCredentialsFile(config);
  const saved = existsSync(file) ? readDemoCredentials(config) : undefined;
  if (saved && (await listings.get(saved.listing_id))) {
    await enableDemoProfileApply(config, db, saved.organization_id);
    // A key revoked or expired since (key revoke, rotation grace over) is never printed: issue a working one.
    const working = await organizations.authenticate(saved.api_key).then(
      () => true,
      () => false,
    );
    if (working) return saved;
    const fresh: DemoCredentials = { ...saved, api_key: (await organizations.rotateKey(saved.organization_id)).apiKey };
    writeFileSync(file, JSON.stringify(fresh, null, 2), { mode: 0o600 });
    return fresh;
  }
  const { organization, key } = await organizations.create('Demo Organization');
  const listing = await listings.create({ organizationId: organization.id, title: 'Senior Backend Engineer', questions: DEMO_QUESTIONS });
  await enableDemoProfileApply(config, db, organization.id);
  const credentials: DemoCredentials = { organization_id: organization.id, api_key: key.apiKey, listing_id: listing.id };
  // On PostgreSQL nothing else creates DATA_DIR (a fresh clone has none).
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return credentials;
}

/**
 * The demo organization accepts profile applications from pages on BASE_URL (the demo
 * page). Re-applied on every start, so a changed PORT or BASE_URL keeps the demo working.
 */
export async function enableDemoProfileApply(config: Config, db: Database, organizationId: string): Promise<void> {
  const repository = new KnexProfileApplySettingsRepository(db);
  const current = (await repository.find(organizationId)) ?? defaultSettings(organizationId);
  const origin = new URL(config.baseUrl).origin;
  const allowedOrigins = current.allowedOrigins.includes(origin) ? current.allowedOrigins : [...current.allowedOrigins, origin];
  // The demo page is where redirect mode ("Continue in this tab") comes back to.
  const demoPage = `${config.baseUrl}/demo`;
  const returnUrls = current.returnUrls.includes(demoPage) ? current.returnUrls : [...current.returnUrls, demoPage];
  let next;
  try {
    next = applyChange(current, { enabled: true, allowedOrigins, returnUrls }, { allowLoopbackHttp: true }, new Date());
  } catch {
    // A BASE_URL that is not a valid widget origin (plain http on a LAN address): enable without it.
    next = applyChange(current, { enabled: true }, { allowLoopbackHttp: true }, new Date());
  }
  await repository.save(next);
  // Written beside the plugin, not through it: other API processes drop their cached copy.
  await announceCacheChange(config, SETTINGS_CACHE, organizationId);
}

/**
 * The demo organization holds the license profile applications need, activated through
 * the service's own API once it listens, as an operator would. Idempotent: an active
 * license answers itself. Provisioning runs in-process (embedded) or on a worker.
 */
export async function licenseDemo(localUrl: string, credentials: DemoCredentials): Promise<void> {
  // Sandbox collection: the demo organization pays with the test card that always succeeds
  // (under host collection the call answers 409 and the host collects).
  await fetch(`${localUrl}/v1/billing/payment_method`, {
    method: 'POST',
    headers: { authorization: `Bearer ${credentials.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ number: '4242424242424242' }),
  });
  const response = await fetch(`${localUrl}/v1/integrations/licenses/${ACCEPT_APPLICATION}/activate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${credentials.api_key}` },
  });
  if (!response.ok) throw new Error(`activating the demo license answered ${response.status}`);
}
