/** Webhook endpoints on knex; signing secrets are stored only as AES-256-GCM ciphertexts bound to their endpoint. */
import { inject, injectable } from 'tsyringe';
import type { SigningSecrets, WebhookEndpoint, WebhookEndpointChange, WebhookEndpointRepository } from '../domain/webhook-endpoint';
import type { TokenCipher } from '../../../platform/security/token-cipher';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { DATABASE } from '../../../platform/database/tokens';

export const WEBHOOK_SECRET_CIPHER = Symbol('WebhookSecretCipher');

export interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  event_types: unknown;
  enabled: boolean;
  disabled_reason: string | null;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
  last_success_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const date = (value: Date | null) => (value ? new Date(value) : null);

const fromRow = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  organizationId: row.organization_id,
  url: row.url,
  description: row.description,
  eventTypes: fromJson<string[]>(row.event_types),
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  previousSecretExpiresAt: date(row.previous_secret_expires_at),
  lastSuccessAt: date(row.last_success_at),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** Associated data: a ciphertext copied to another endpoint or field does not decrypt. */
const aad = (endpointId: string, field: 'current' | 'previous') => `webhook-secret:${endpointId}:${field}`;

@injectable()
export class KnexWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(
    @inject(DATABASE) private readonly db: Database,
    @inject(WEBHOOK_SECRET_CIPHER) private readonly cipher: TokenCipher,
  ) {}

  async create(endpoint: WebhookEndpoint, secret: string): Promise<void> {
    await this.db('hi_webhook_endpoints').insert({
      id: endpoint.id,
      organization_id: endpoint.organizationId,
      url: endpoint.url,
      description: endpoint.description,
      event_types: JSON.stringify(endpoint.eventTypes),
      enabled: endpoint.enabled,
      secret_ciphertext: this.cipher.encrypt(secret, aad(endpoint.id, 'current')),
      created_at: endpoint.createdAt,
      updated_at: endpoint.updatedAt,
    });
  }

  async find(organizationId: string, endpointId: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.db<EndpointRow>('hi_webhook_endpoints').where({ id: endpointId, organization_id: organizationId }).first();
    return row ? fromRow(row) : undefined;
  }

  async findById(endpointId: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.db<EndpointRow>('hi_webhook_endpoints').where({ id: endpointId }).first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string, options: { limit: number; startingAfter?: string }) {
    let query = this.db<EndpointRow>('hi_webhook_endpoints')
      .where({ organization_id: organizationId })
      .orderBy('seq', 'desc')
      .limit(options.limit + 1);
    if (options.startingAfter) {
      query = query.where('seq', '<', this.db('hi_webhook_endpoints').select('seq').where({ id: options.startingAfter, organization_id: organizationId }));
    }
    const rows = await query;
    return { data: rows.slice(0, options.limit).map(fromRow), hasMore: rows.length > options.limit };
  }

  async update(organizationId: string, endpointId: string, change: WebhookEndpointChange & { disabledReason?: string | null }, at: Date) {
    const patch: Record<string, unknown> = { updated_at: at };
    if (change.url !== undefined) patch.url = change.url;
    if (change.description !== undefined) patch.description = change.description;
    if (change.eventTypes !== undefined) patch.event_types = JSON.stringify(change.eventTypes);
    if (change.enabled !== undefined) patch.enabled = change.enabled;
    if (change.disabledReason !== undefined) patch.disabled_reason = change.disabledReason;
    const rows = await this.db<EndpointRow>('hi_webhook_endpoints').where({ id: endpointId, organization_id: organizationId }).update(patch).returning('*');
    return rows[0] ? fromRow(rows[0] as EndpointRow) : undefined;
  }

  async delete(organizationId: string, endpointId: string): Promise<boolean> {
    const rows = await this.db('hi_webhook_endpoints').where({ id: endpointId, organization_id: organizationId }).del().returning('id');
    return rows.length > 0;
  }

  async rotateSecret(organizationId: string, endpointId: string, secret: string, previousExpiresAt: Date, at: Date) {
    return this.db.transaction(async (trx) => {
      const row = await trx<EndpointRow>('hi_webhook_endpoints').where({ id: endpointId, organization_id: organizationId }).forUpdate().first();
      if (!row) return undefined;
      const current = this.cipher.decrypt(row.secret_ciphertext, aad(endpointId, 'current'));
      const updated = await trx<EndpointRow>('hi_webhook_endpoints')
        .where({ id: endpointId })
        .update({
          secret_ciphertext: this.cipher.encrypt(secret, aad(endpointId, 'current')),
          previous_secret_ciphertext: this.cipher.encrypt(current, aad(endpointId, 'previous')),
          previous_secret_expires_at: previousExpiresAt,
          updated_at: at,
        })
        .returning('*');
      return fromRow(updated[0] as EndpointRow);
    });
  }

  /**
   * The endpoint and its signing secrets from its row as the delivery claim reads it (one
   * statement with the delivery and the event: no read of its own per attempt).
   */
  deliveryTarget(row: EndpointRow, now: Date): { endpoint: WebhookEndpoint; secrets: SigningSecrets } {
    return { endpoint: fromRow(row), secrets: this.secretsOf(row, now) };
  }

  async secrets(endpointId: string, now: Date): Promise<SigningSecrets | undefined> {
    const row = await this.db<EndpointRow>('hi_webhook_endpoints').where({ id: endpointId }).first();
    return row ? this.secretsOf(row, now) : undefined;
  }

  private secretsOf(row: EndpointRow, now: Date): SigningSecrets {
    const endpointId = row.id;
    const current = this.decrypt(row.secret_ciphertext, aad(endpointId, 'current'));
    const overlapping = row.previous_secret_ciphertext && row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > now;
    return overlapping ? { current, previous: this.decrypt(row.previous_secret_ciphertext!, aad(endpointId, 'previous')) } : { current };
  }

  /**
   * Every delivery attempt needs its endpoint's secret: decrypted once per (ciphertext, binding),
   * not per attempt. A rotation writes a new ciphertext, so a stale entry is never used; the
   * plaintexts are the ones the signer already keeps (StandardWebhooksSigner), bounded the same way.
   */
  private readonly decrypted = new Map<string, string>();

  private decrypt(ciphertext: string, binding: string): string {
    const key = `${binding}\n${ciphertext}`;
    let plaintext = this.decrypted.get(key);
    if (plaintext === undefined) {
      plaintext = this.cipher.decrypt(ciphertext, binding);
      if (this.decrypted.size > 1000) this.decrypted.clear();
      this.decrypted.set(key, plaintext);
    }
    return plaintext;
  }

  async markSucceeded(endpointId: string, at: Date): Promise<void> {
    await this.db('hi_webhook_endpoints').where({ id: endpointId }).update({ last_success_at: at });
  }
}
