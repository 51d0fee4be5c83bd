import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { forbidden, invalid, notFound, unauthenticated } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import { apiKeyMatches, apiKeyPrefix, generateApiKey, parseKeyOrPrefix } from './api-key';
import { isKeyUsable, type ApiKeyRecord, type Organization } from './organization';
import { API_KEY_REPOSITORY, ORGANIZATION_REPOSITORY, type ApiKeyRepository, type OrganizationRepository } from './ports';

export interface ApiKeyPolicy {
  /** How long a rotated-out key keeps working, so deployed clients can be updated. */
  rotationGraceSeconds: number;
}

export const API_KEY_POLICY = Symbol('ApiKeyPolicy');

/** Printable, no control characters, no surrounding spaces. */
const EXTERNAL_ID = /^(?=\S)[^\p{Cc}]{1,255}(?<=\S)$/u;

export interface IssuedKey {
  organizationId: string;
  apiKey: string;
  prefix: string;
  previousKeysExpireAt?: Date;
}

@injectable()
export class OrganizationService {
  constructor(
    @inject(ORGANIZATION_REPOSITORY) private readonly organizations: OrganizationRepository,
    @inject(API_KEY_REPOSITORY) private readonly keys: ApiKeyRepository,
    @inject(API_KEY_POLICY) private readonly policy: ApiKeyPolicy,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `externalId`: the host's id for its tenant (1–255 printable characters), unique; 409 organization_exists if taken. */
  async create(name: string, options: { externalId?: string } = {}): Promise<{ organization: Organization; key: IssuedKey }> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 200) throw invalid('invalid_name', 'name must be 1 to 200 characters', 'name');
    const externalId = options.externalId;
    if (externalId !== undefined && !EXTERNAL_ID.test(externalId)) {
      throw invalid('invalid_external_id', 'external_id must be 1 to 255 printable characters, without leading or trailing spaces', 'external_id');
    }
    const now = this.clock.now();
    const organization: Organization = { id: newId('org'), name: trimmed, externalId: externalId ?? null, createdAt: now };
    const generated = generateApiKey();
    await this.organizations.createWithKey(organization, this.keyRecord(organization.id, generated.prefix, generated.hash, now));
    return { organization, key: { organizationId: organization.id, apiKey: generated.plaintext, prefix: generated.prefix } };
  }

  async get(organizationId: string): Promise<Organization> {
    const organization = await this.organizations.findById(organizationId);
    if (!organization) throw notFound('organization', organizationId);
    return organization;
  }

  /** The organization the host created for one of its tenants, or undefined. */
  async findByExternalId(externalId: string): Promise<Organization | undefined> {
    return EXTERNAL_ID.test(externalId) ? this.organizations.findByExternalId(externalId) : undefined;
  }

  /** Resolves a bearer API key to its organization id, or throws `invalid_api_key`. */
  async authenticate(plaintext: string): Promise<string> {
    const prefix = apiKeyPrefix(plaintext);
    const key = prefix ? await this.keys.findByPrefix(prefix) : undefined;
    // Hash even when nothing was found, so a miss costs what a hit costs.
    const matches = apiKeyMatches(plaintext, key?.hash ?? '0'.repeat(64));
    if (!key || !matches || !isKeyUsable(key, this.clock.now())) {
      throw unauthenticated('invalid_api_key', 'The API key is missing, malformed, expired or revoked');
    }
    return key.organizationId;
  }

  /**
   * Issues a new key; the old ones keep working for the grace period. Called with a key
   * (`callerPrefix`), only the current key may rotate: a key already rotated out could
   * otherwise mint a successor that outlives its own expiry.
   */
  async rotateKey(organizationId: string, callerPrefix?: string): Promise<IssuedKey> {
    await this.get(organizationId);
    if (callerPrefix !== undefined) {
      const caller = await this.keys.findByPrefix(callerPrefix);
      if (!caller || caller.organizationId !== organizationId || caller.expiresAt !== null || caller.revokedAt !== null) {
        throw forbidden('api_key_not_current', 'Only the current API key may rotate; this key was rotated out and only works until it expires');
      }
    }
    const now = this.clock.now();
    const expireAt = new Date(now.getTime() + this.policy.rotationGraceSeconds * 1000);
    const generated = generateApiKey();
    await this.keys.rotate(this.keyRecord(organizationId, generated.prefix, generated.hash, now), expireAt);
    return { organizationId, apiKey: generated.plaintext, prefix: generated.prefix, previousKeysExpireAt: expireAt };
  }

  async revokeKey(keyOrPrefix: string): Promise<ApiKeyRecord> {
    const prefix = parseKeyOrPrefix(keyOrPrefix.trim());
    if (!prefix) throw invalid('invalid_key_prefix', 'Expected an API key or its prefix (hik_ followed by 12 characters)', 'key');
    const revoked = await this.keys.revoke(prefix, this.clock.now());
    if (!revoked) throw notFound('API key', prefix);
    return revoked;
  }

  /** An organization revokes one of its own keys at once; another organization's prefix is 404. */
  async revokeOwnKey(organizationId: string, prefix: string): Promise<ApiKeyRecord> {
    const key = parseKeyOrPrefix(prefix.trim()) === prefix.trim() ? await this.keys.findByPrefix(prefix.trim()) : undefined;
    if (!key || key.organizationId !== organizationId) throw notFound('API key', prefix);
    if (key.revokedAt) return key;
    return (await this.keys.revoke(key.prefix, this.clock.now())) ?? key;
  }

  listKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    return this.keys.listForOrganization(organizationId);
  }

  private keyRecord(organizationId: string, prefix: string, hash: string, now: Date): ApiKeyRecord {
    return { id: newId('key'), organizationId, prefix, hash, createdAt: now, expiresAt: null, revokedAt: null };
  }
}
