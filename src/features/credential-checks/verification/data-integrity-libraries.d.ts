/**
 * The parts of Digital Bazaar's Data Integrity libraries the plugin uses (they ship no
 * types). ESM packages, loaded with require() (Node >= 20.19).
 */
declare module '@digitalbazaar/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { cryptosuite: unknown; signer?: unknown; date?: Date | string });
  }
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: { name: string };
}

declare module '@digitalbazaar/ed25519-multikey' {
  export interface Ed25519KeyPair {
    id?: string;
    controller?: string;
    publicKeyMultibase: string;
    signer(): unknown;
    export(options: { publicKey?: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<Record<string, unknown>>;
  }
  export function generate(options?: { id?: string; controller?: string; seed?: Uint8Array }): Promise<Ed25519KeyPair>;
  export function from(key: Record<string, unknown>): Promise<Ed25519KeyPair>;
}

declare module 'jsonld-signatures' {
  export type DocumentLoader = (url: string) => Promise<{ contextUrl: string | null; documentUrl: string; document: unknown }>;
  interface VerifyResult {
    verified: boolean;
    error?: unknown;
  }
  export class AssertionProofPurpose {
    constructor(options?: { date?: Date; maxTimestampDelta?: number });
  }
  const jsigs: {
    verify(document: object, options: { suite: unknown; purpose: unknown; documentLoader: DocumentLoader }): Promise<VerifyResult>;
    sign(document: object, options: { suite: unknown; purpose: unknown; documentLoader: DocumentLoader }): Promise<Record<string, unknown>>;
    purposes: { AssertionProofPurpose: typeof AssertionProofPurpose };
  };
  export default jsigs;
}

declare module '@digitalbazaar/ed25519-multikey' {
  export function fromJwk(options: { jwk: Record<string, unknown>; secretKey?: boolean; id?: string; controller?: string }): Promise<Ed25519KeyPair>;
}

/** Tests issue credentials with it. */
declare module '@digitalbazaar/vc' {
  export function issue(options: { credential: object; suite: unknown; documentLoader: (url: string) => Promise<unknown> }): Promise<Record<string, unknown>>;
}
