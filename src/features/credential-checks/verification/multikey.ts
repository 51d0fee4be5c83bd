/** An Ed25519 public JWK as a Multikey `publicKeyMultibase` (base58btc of 0xed01 + the raw key); other keys: null. */
import bs58 from 'bs58';
import type { JWK } from 'jose';

const ED25519_PUB = [0xed, 0x01];

export function multikeyOf(jwk: JWK): string | null {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') return null;
  const raw = Buffer.from(jwk.x, 'base64url');
  if (raw.length !== 32) return null;
  return `z${bs58.encode(Buffer.concat([Buffer.from(ED25519_PUB), raw]))}`;
}
