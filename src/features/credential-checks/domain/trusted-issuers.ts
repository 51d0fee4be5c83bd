/**
 * An organization's trust list: per credential type, the issuers whose credentials it
 * accepts. A requirement that names its own `issuers` uses those; one that names none uses
 * the organization's list for its type; with neither, any issuer whose proof checks out.
 */
import { z } from 'zod';

export const trustedIssuersSchema = z
  .array(z.string().trim().min(1).max(500))
  .min(1)
  .max(100)
  .refine((list) => new Set(list).size === list.length, 'issuers must be unique');

export const credentialTypeParam = z.string().trim().min(1).max(200);

export interface TrustList {
  credentialType: string;
  issuers: string[];
  updatedAt: Date;
}

export interface TrustedIssuersStore {
  list(organizationId: string): Promise<TrustList[]>;
  find(organizationId: string, credentialType: string): Promise<TrustList | undefined>;
  put(organizationId: string, credentialType: string, issuers: string[], now: Date): Promise<TrustList>;
  delete(organizationId: string, credentialType: string): Promise<boolean>;
}

export const TRUSTED_ISSUERS_STORE = Symbol('TrustedIssuersStore');

/** Credential types compare without case, as requirements match them. */
export const trustKey = (credentialType: string) => credentialType.trim().toLowerCase();
