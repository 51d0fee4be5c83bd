/**
 * Issues real W3C Verifiable Credentials for the tests, with `jose`: an issuer with an
 * Ed25519 key named by did:key, did:jwk or did:web (its DID document and its Bitstring Status
 * List served by a local HTTP server, so nothing reaches the network), Open Badges 3.0
 * credentials as VC-JWT, revocation by setting a bit.
 */
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import bs58 from 'bs58';
import { CompactSign, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import * as vc from '@digitalbazaar/vc';
import { SHIPPED_CONTEXTS } from '../../src/features/credential-checks/verification/json-ld-contexts';

export const STATUS_LIST_BITS = 131_072; // the spec's minimum: 16 KiB, so a position says nothing about a holder

export interface IssuerKey {
  did: string;
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function ed25519Key(): Promise<{ privateKey: CryptoKey; publicJwk: JWK }> {
  // Extractable: the same key also signs Data Integrity proofs (as a Multikey).
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return { privateKey, publicJwk };
}

export async function didKeyIssuer(): Promise<IssuerKey> {
  const { privateKey, publicJwk } = await ed25519Key();
  const raw = Buffer.from(publicJwk.x!, 'base64url');
  const id = `z${bs58.encode(Buffer.concat([Buffer.from([0xed, 0x01]), raw]))}`;
  return { did: `did:key:${id}`, kid: `did:key:${id}#${id}`, privateKey, publicJwk };
}

export async function didJwkIssuer(): Promise<IssuerKey> {
  const { privateKey, publicJwk } = await ed25519Key();
  const did = `did:jwk:${Buffer.from(JSON.stringify({ kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x })).toString('base64url')}`;
  return { did, kid: `${did}#0`, privateKey, publicJwk };
}

export async function signVcJwt(issuer: IssuerKey, credential: Record<string, unknown>): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(credential)))
    .setProtectedHeader({ alg: 'EdDSA', kid: issuer.kid, typ: 'vc+jwt', cty: 'vc' })
    .sign(issuer.privateKey);
}

/** The issuers' side of JSON-LD: the shipped contexts only (an issuer signs what a verifier can expand). */
const issuerDocumentLoader = async (url: string) => {
  const document = SHIPPED_CONTEXTS.get(url);
  if (!document) throw new Error(`test issuer: no context ${url}`);
  return { contextUrl: null, documentUrl: url, document: structuredClone(document) };
};

/**
 * Secures a credential with a Data Integrity proof (DataIntegrityProof, eddsa-rdfc-2022), issued
 * with Digital Bazaar's @digitalbazaar/vc, by the issuer's Ed25519 key as a Multikey.
 */
export async function signDataIntegrity(issuer: IssuerKey, credential: Record<string, unknown>): Promise<Record<string, unknown>> {
  const keyPair = await Ed25519Multikey.fromJwk({
    jwk: { ...(await exportJWK(issuer.privateKey)), ...issuer.publicJwk },
    secretKey: true,
    id: issuer.kid,
    controller: issuer.did,
  });
  const suite = new DataIntegrityProof({ signer: keyPair.signer(), cryptosuite });
  return vc.issue({ credential: structuredClone(credential), suite, documentLoader: issuerDocumentLoader });
}

/** An Open Badges 3.0 credential (OpenBadgeCredential, an Achievement of the given achievementType). */
export function openBadge(
  issuer: IssuerKey,
  options: { achievementType: string; name: string; validFrom: Date; validUntil?: Date; status?: { index: number; url: string }; id?: string },
) {
  return {
    '@context': ['https://www.w3.org/ns/credentials/v2', 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'],
    id: options.id ?? `urn:uuid:${crypto.randomUUID()}`,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer: { id: issuer.did, type: ['Profile'], name: 'Board of Nursing (test)' },
    name: options.name,
    validFrom: options.validFrom.toISOString(),
    ...(options.validUntil ? { validUntil: options.validUntil.toISOString() } : {}),
    credentialSubject: {
      type: ['AchievementSubject'],
      achievement: {
        id: `urn:uuid:${crypto.randomUUID()}`,
        type: ['Achievement'],
        achievementType: options.achievementType,
        name: options.name,
        criteria: { narrative: 'Passed the licensing examination' },
      },
    },
    ...(options.status
      ? {
          credentialStatus: {
            id: `${options.status.url}#${options.status.index}`,
            type: 'BitstringStatusListEntry',
            statusPurpose: 'revocation',
            statusListIndex: String(options.status.index),
            statusListCredential: options.status.url,
          },
        }
      : {}),
  };
}

/** A did:web issuer whose DID document and revocation list a local server answers. */
export class LocalIssuerServer {
  private server?: Server;
  private readonly revoked = new Set<number>();
  issuer!: IssuerKey;
  port = 0;
  /** When set, the status list answers this status code instead. */
  statusListFailure: number | null = null;

  async start(): Promise<this> {
    const { privateKey, publicJwk } = await ed25519Key();
    this.server = createServer((req, res) => void this.answer(req.url ?? '', res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    const did = `did:web:127.0.0.1%3A${this.port}`;
    this.issuer = { did, kid: `${did}#key-1`, privateKey, publicJwk };
    return this;
  }

  get statusListUrl(): string {
    return `https://127.0.0.1:${this.port}/status/1`;
  }

  revoke(index: number): void {
    this.revoked.add(index);
  }

  private async answer(url: string, res: import('node:http').ServerResponse): Promise<void> {
    if (url === '/.well-known/did.json') {
      const { did, publicJwk } = this.issuer;
      res.setHeader('content-type', 'application/did+json');
      res.end(
        JSON.stringify({
          '@context': ['https://www.w3.org/ns/did/v1'],
          id: did,
          verificationMethod: [{ id: `${did}#key-1`, type: 'JsonWebKey', controller: did, publicKeyJwk: publicJwk }],
          assertionMethod: [`${did}#key-1`],
        }),
      );
      return;
    }
    if (url === '/status/1') {
      if (this.statusListFailure) {
        res.statusCode = this.statusListFailure;
        res.end();
        return;
      }
      const bits = Buffer.alloc(STATUS_LIST_BITS / 8);
      for (const i of this.revoked) bits[Math.floor(i / 8)]! |= 0x80 >> (i % 8);
      const list = {
        '@context': ['https://www.w3.org/ns/credentials/v2'],
        id: this.statusListUrl,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: this.issuer.did,
        validFrom: new Date().toISOString(),
        credentialSubject: {
          id: `${this.statusListUrl}#list`,
          type: 'BitstringStatusList',
          statusPurpose: 'revocation',
          encodedList: `u${gzipSync(bits).toString('base64url')}`,
        },
      };
      res.setHeader('content-type', 'application/vc+jwt');
      res.end(await signVcJwt(this.issuer, list));
      return;
    }
    res.statusCode = 404;
    res.end();
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
