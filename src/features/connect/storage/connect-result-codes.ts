/**
 * Redirect mode's result codes: the connect callback stores what the listing page's widget
 * should learn and sends back only a random code in the URL fragment; the widget exchanges
 * it once, within two minutes, from the flow's origin, with the nonce it kept. Codes and
 * nonces are stored as SHA-256 digests; no candidate token is stored (it is issued at the
 * exchange). Expired codes are deleted as new ones are issued.
 */
import { createHash, randomBytes } from 'node:crypto';
import { deletedRows, type Database } from '../../../platform/database/database';

export const RESULT_CODE_TTL_MS = 2 * 60_000;

const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export interface StoredConnectResult {
  origin: string;
  result: Record<string, unknown>;
}

export class ConnectResultCodes {
  private lastPrunedAt = 0;

  constructor(private readonly db: Database) {}

  async issue(origin: string, clientState: string, result: Record<string, unknown>): Promise<string> {
    const code = `hicr_${randomBytes(24).toString('base64url')}`;
    await this.db('hi_connect_results').insert({
      code_hash: digest(code),
      origin,
      client_state_hash: digest(clientState),
      result: JSON.stringify(result),
      expires_at: new Date(Date.now() + RESULT_CODE_TTL_MS),
    });
    if (Date.now() - this.lastPrunedAt > RESULT_CODE_TTL_MS) {
      this.lastPrunedAt = Date.now();
      const expired = this.db('hi_connect_results').select('code_hash').where('expires_at', '<', new Date()).limit(500);
      await this.db('hi_connect_results')
        .whereIn('code_hash', expired)
        .delete()
        .then(deletedRows, () => 0);
    }
    return code;
  }

  /** Claims the code: the first exchange from its origin with its nonce gets the result, every other one nothing. */
  async redeem(code: string, clientState: string, origin: string): Promise<StoredConnectResult | undefined> {
    const rows = await this.db('hi_connect_results')
      .where({ code_hash: digest(code), client_state_hash: digest(clientState), origin })
      .whereNull('used_at')
      .where('expires_at', '>', new Date())
      .update({ used_at: new Date() })
      .returning(['origin', 'result']);
    const row = rows[0] as { origin: string; result: unknown } | undefined;
    if (!row) return undefined;
    return { origin: row.origin, result: typeof row.result === 'string' ? JSON.parse(row.result) : (row.result as Record<string, unknown>) };
  }
}
