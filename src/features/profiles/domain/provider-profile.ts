/**
 * A candidate's profile as the profile provider returns it (the sandbox provider and a
 * configured OAuth provider answer the same shape). Dates are YYYY-MM-DD.
 */
export interface ProviderSkill {
  name: string;
  verified: boolean;
}

export interface ProviderCredential {
  title: string;
  issuer: string;
  verified: boolean;
  issued_at: string;
}

export interface ProviderPosition {
  title: string;
  company: string;
  start_date: string;
  /** null while the position is current. */
  end_date: string | null;
  /** Whether the provider verified the position, when it says. */
  verified?: boolean;
}

export interface ProviderProfile {
  id: string;
  name: string;
  headline: string | null;
  profile_url: string;
  skills: ProviderSkill[];
  credentials: ProviderCredential[];
  positions: ProviderPosition[];
  /** The candidate's email (OpenID Connect's `email` claim), when the provider gives one; only a verified one prefills the widget. */
  email?: string;
  email_verified?: boolean;
}

export interface ProviderTokens {
  accessToken: string;
  /** Some providers rotate refresh tokens; undefined keeps the one we have. */
  refreshToken?: string;
  expiresAt?: Date;
  /** The scopes granted, when the token answer says (RFC 6749 §5.1: omitted when as requested). */
  scopes?: string[];
}
