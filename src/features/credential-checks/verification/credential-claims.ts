/**
 * What a Verifiable Credential claims, read the same way whatever secures it (a VC-JWT's
 * payload or a Data Integrity-secured document): its types (with an Open Badges 3.0
 * achievement's `achievementType`), issuer, validity period and status entries. Callers read
 * the claims of what a proof covered; `Rejected` carries the stable reason a check stops with.
 */
import type { VerificationReason } from '../domain/presented-credential';

export class Rejected extends Error {
  constructor(readonly reason: VerificationReason) {
    super(reason);
  }
}

export type Json = Record<string, unknown>;

export interface Claims {
  id: string | null;
  types: string[];
  issuer: string;
  name: string | null;
  validFrom: Date | null;
  validUntil: Date | null;
  credentialStatus: unknown;
  subject: Json;
}

const asDate = (value: unknown): Date | null => {
  if (value === undefined || value === null) return null;
  const date = typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new Rejected('credential_malformed');
  return date;
};
const strings = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
export const issuerId = (issuer: unknown) => (typeof issuer === 'string' ? issuer : issuer && typeof issuer === 'object' ? (issuer as Json).id : undefined);

/** The credential's claims from a v2.0 document (or JWT payload) or a v1.1 JWT payload (`vc` + registered claims). */
export function claimsOf(payload: Json): Claims {
  const vc = payload.vc && typeof payload.vc === 'object' ? (payload.vc as Json) : undefined;
  const credential = vc ?? payload;
  const issuer = issuerId(credential.issuer) ?? payload.iss;
  if (typeof issuer !== 'string' || !issuer.startsWith('did:')) throw new Rejected('credential_malformed');
  if (vc && payload.iss !== undefined && payload.iss !== issuer) throw new Rejected('issuer_mismatch');
  const types = strings(credential.type);
  if (!types.includes('VerifiableCredential')) throw new Rejected('credential_malformed');
  const subjects = Array.isArray(credential.credentialSubject) ? credential.credentialSubject : [credential.credentialSubject];
  const subject = (subjects[0] && typeof subjects[0] === 'object' ? subjects[0] : {}) as Json;
  // Open Badges 3.0: what was achieved is the subject's achievement (its achievementType, e.g. License).
  const achievement = subject.achievement && typeof subject.achievement === 'object' ? (subject.achievement as Json) : undefined;
  const achievementTypes = achievement ? strings(achievement.achievementType) : [];
  const name = typeof credential.name === 'string' ? credential.name : typeof achievement?.name === 'string' ? achievement.name : null;
  return {
    id: typeof credential.id === 'string' ? credential.id : typeof payload.jti === 'string' ? payload.jti : null,
    types: [...types, ...achievementTypes],
    issuer,
    name,
    validFrom: asDate(credential.validFrom ?? credential.issuanceDate ?? payload.nbf),
    validUntil: asDate(credential.validUntil ?? credential.expirationDate ?? payload.exp),
    credentialStatus: credential.credentialStatus,
    subject,
  };
}
