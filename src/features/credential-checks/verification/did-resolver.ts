/**
 * Resolves an issuer's DID to its public keys, locally where the method allows it:
 * `did:key` (Ed25519, decoded from the identifier), `did:jwk` (the key is the identifier) and
 * `did:web` (the DID document fetched from the issuer's domain through the document fetcher).
 * Nothing else is resolved: an issuer we cannot resolve is `issuer_unresolvable`.
 */
import bs58 from 'bs58';
import type { JWK } from 'jose';
import type { DocumentFetcher } from './document-fetcher';

export class DidResolutionError extends Error {
  readonly code = 'issuer_unresolvable';
}

export interface ResolvedKey {
  /** The verification method's id (`did:…#fragment`). */
  id: string;
  jwk: JWK;
}

const ED25519_PUB = [0xed, 0x01];
const fail = (message: string) => new DidResolutionError(message);

function fromBase64urlJson(text: string): unknown {
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw fail('did:jwk: the identifier is not base64url JSON');
  }
}

function isPublicJwk(value: unknown): value is JWK {
  if (!value || typeof value !== 'object') return false;
  const jwk = value as Record<string, unknown>;
  return typeof jwk.kty === 'string' && !('d' in jwk);
}

function didKey(did: string): ResolvedKey[] {
  const id = did.slice('did:key:'.length);
  if (!id.startsWith('z')) throw fail('did:key: only base58btc multibase (z…) is supported');
  let bytes: Uint8Array;
  try {
    bytes = bs58.decode(id.slice(1));
  } catch {
    throw fail('did:key: not base58btc');
  }
  if (bytes.length !== 34 || bytes[0] !== ED25519_PUB[0] || bytes[1] !== ED25519_PUB[1]) throw fail('did:key: only Ed25519 keys are supported');
  const x = Buffer.from(bytes.slice(2)).toString('base64url');
  return [{ id: `${did}#${id}`, jwk: { kty: 'OKP', crv: 'Ed25519', x } }];
}

function didJwk(did: string): ResolvedKey[] {
  const jwk = fromBase64urlJson(did.slice('did:jwk:'.length));
  if (!isPublicJwk(jwk)) throw fail('did:jwk: not a public JWK');
  return [{ id: `${did}#0`, jwk }];
}

/** did:web:host%3Aport:path:to → https://host:port/path/to/did.json (no path: /.well-known/did.json). */
export function didWebUrl(did: string): string {
  const parts = did.slice('did:web:'.length).split(':');
  const host = decodeURIComponent(parts[0] ?? '');
  if (!/^[a-z0-9.-]+(:\d{1,5})?$/i.test(host)) throw fail('did:web: not a host name');
  const path = parts.slice(1).map((p) => decodeURIComponent(p));
  if (path.some((p) => p === '' || p === '.' || p === '..' || p.includes('/'))) throw fail('did:web: bad path');
  return path.length ? `https://${host}/${path.join('/')}/did.json` : `https://${host}/.well-known/did.json`;
}

async function didWeb(did: string, fetcher: DocumentFetcher): Promise<ResolvedKey[]> {
  const doc = await fetcher.json(didWebUrl(did)).catch((e: Error) => {
    throw fail(`did:web: ${e.message}`);
  });
  if (!doc || typeof doc !== 'object' || (doc as { id?: unknown }).id !== did) throw fail('did:web: the document is not about this DID');
  const methods = (doc as { verificationMethod?: unknown }).verificationMethod;
  if (!Array.isArray(methods)) throw fail('did:web: no verification methods');
  const keys: ResolvedKey[] = [];
  for (const m of methods as Array<Record<string, unknown>>) {
    if (typeof m?.id !== 'string' || !isPublicJwk(m.publicKeyJwk)) continue;
    const id = m.id.startsWith('#') ? `${did}${m.id}` : m.id;
    if (id.startsWith(`${did}#`)) keys.push({ id, jwk: m.publicKeyJwk });
  }
  if (keys.length === 0) throw fail('did:web: no usable publicKeyJwk');
  return keys;
}

export class DidResolver {
  constructor(private readonly fetcher: DocumentFetcher) {}

  async keys(did: string): Promise<ResolvedKey[]> {
    if (did.length > 4096) throw fail('DID too long');
    if (did.startsWith('did:key:')) return didKey(did);
    if (did.startsWith('did:jwk:')) return didJwk(did);
    if (did.startsWith('did:web:')) return didWeb(did, this.fetcher);
    throw fail(`unsupported DID method: ${did.split(':').slice(0, 2).join(':')}`);
  }
}
