/**
 * The JSON-LD contexts a Data Integrity proof may need, shipped with the plugin (see
 * contexts/README.md for their sources and licenses): canonicalizing a credential expands it
 * through its contexts, and nothing is ever loaded from the network, so a credential using a
 * context not listed here cannot be verified (`context_unavailable`).
 */
import credentialsV2 from './contexts/credentials-v2.json';
import dataIntegrityV2 from './contexts/data-integrity-v2.json';
import multikeyV1 from './contexts/multikey-v1.json';
import openBadges303 from './contexts/open-badges-3.0.3.json';

export const CREDENTIALS_V2_CONTEXT = 'https://www.w3.org/ns/credentials/v2';
export const OPEN_BADGES_CONTEXT = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';
export const DATA_INTEGRITY_V2_CONTEXT = 'https://w3id.org/security/data-integrity/v2';
export const MULTIKEY_V1_CONTEXT = 'https://w3id.org/security/multikey/v1';

export const SHIPPED_CONTEXTS: ReadonlyMap<string, object> = new Map<string, object>([
  [CREDENTIALS_V2_CONTEXT, credentialsV2],
  [OPEN_BADGES_CONTEXT, openBadges303],
  [DATA_INTEGRITY_V2_CONTEXT, dataIntegrityV2],
  [MULTIKEY_V1_CONTEXT, multikeyV1],
]);
