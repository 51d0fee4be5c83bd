/**
 * The JSON-LD document loader of a Data Integrity verification: it answers the shipped
 * contexts and the issuer's keys (resolved locally by the DID resolver: did:key and did:jwk
 * from the identifier, did:web from the issuer's own domain) and nothing else, so no
 * credential makes the plugin fetch a context or a document of its choosing. What it refused
 * is remembered, so the verification can say why it failed.
 */
import { DidResolutionError, type DidResolver, type ResolvedKey } from './did-resolver';
import { MULTIKEY_V1_CONTEXT, SHIPPED_CONTEXTS } from './json-ld-contexts';
import { multikeyOf } from './multikey';

const DID_V1_CONTEXT = 'https://www.w3.org/ns/did/v1';

export type LoaderFailure = 'context_unavailable' | 'issuer_unresolvable';

export interface LoadedDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
}

export class LocalDocumentLoader {
  /** The first thing refused, if any. */
  failure: LoaderFailure | null = null;

  constructor(private readonly dids: DidResolver) {}

  readonly load = async (url: string): Promise<LoadedDocument> => {
    const context = SHIPPED_CONTEXTS.get(url);
    if (context) return { contextUrl: null, documentUrl: url, document: structuredClone(context) };
    if (url.startsWith('did:')) return { contextUrl: null, documentUrl: url, document: await this.didDocument(url) };
    this.failure ??= 'context_unavailable';
    throw new Error(`not shipped, not fetched: ${url.slice(0, 200)}`);
  };

  /** A DID (its document, every Ed25519 key an assertion method) or one of its keys (a Multikey). */
  private async didDocument(url: string): Promise<unknown> {
    const [did = '', fragment] = url.split('#', 2);
    let keys: ResolvedKey[];
    try {
      keys = await this.dids.keys(did);
    } catch (error) {
      if (error instanceof DidResolutionError) this.failure ??= 'issuer_unresolvable';
      throw error;
    }
    const methods = keys.flatMap((key) => {
      const publicKeyMultibase = multikeyOf(key.jwk);
      return publicKeyMultibase ? [{ id: key.id, type: 'Multikey', controller: did, publicKeyMultibase }] : [];
    });
    if (fragment === undefined) {
      return { '@context': [DID_V1_CONTEXT, MULTIKEY_V1_CONTEXT], id: did, verificationMethod: methods, assertionMethod: methods.map((m) => m.id) };
    }
    const method = methods.find((m) => m.id === url);
    if (!method) {
      this.failure ??= 'issuer_unresolvable';
      throw new Error('no such key of the issuer');
    }
    return { '@context': MULTIKEY_V1_CONTEXT, ...method };
  }
}
