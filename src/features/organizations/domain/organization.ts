export interface Organization {
  id: string;
  name: string;
  /** The embedding host's id for this organization (its tenant), unique; null when none was given. */
  externalId?: string | null;
  createdAt: Date;
}

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  prefix: string;
  hash: string;
  createdAt: Date;
  /** Set when the key was rotated: it keeps working until then. */
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export function isKeyUsable(key: ApiKeyRecord, now: Date): boolean {
  if (key.revokedAt) return false;
  return key.expiresAt === null || key.expiresAt.getTime() > now.getTime();
}
