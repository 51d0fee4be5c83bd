/**
 * The plugin's registration at the sandbox provider: a fixed client id, a client secret
 * derived from SECRET_KEY, and the one redirect URI the sandbox accepts for it.
 */
import type { Config } from '../../kernel/config';
import { IDENTITY_MAPPING } from '../../kernel/config/profile-mapping';
import type { ProviderEndpoints } from '../profiles/provider/provider-endpoints';
import { deriveKey } from '../../platform/security/key-derivation';

export const SANDBOX_MOUNT_PATH = '/sandbox';
export const SANDBOX_CLIENT_ID = 'hiring-integrations-sandbox';
export const SANDBOX_SCOPES = ['profile', 'skills', 'credentials', 'experience'];
export const CONNECT_CALLBACK_PATH = '/v1/connect/profile/callback';

export interface SandboxRegistration {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export function sandboxRegistration(config: Config): SandboxRegistration {
  return {
    clientId: SANDBOX_CLIENT_ID,
    clientSecret: deriveKey(config.secretKey, 'sandbox-client-secret').toString('base64url'),
    redirectUri: `${config.baseUrl}${CONNECT_CALLBACK_PATH}`,
  };
}

export function sandboxEndpoints(config: Config): ProviderEndpoints {
  const registration = sandboxRegistration(config);
  return {
    authorizeUrl: `${config.baseUrl}${SANDBOX_MOUNT_PATH}/oauth/authorize`,
    // Called by servers, not browsers: inside a compose network a worker reaches the API by its service name.
    tokenUrl: `${config.sandboxInternalUrl}${SANDBOX_MOUNT_PATH}/oauth/token`,
    profileUrl: `${config.sandboxInternalUrl}${SANDBOX_MOUNT_PATH}/v1/profile`,
    clientId: registration.clientId,
    clientSecret: registration.clientSecret,
    scopes: SANDBOX_SCOPES,
    scopeDelimiter: ' ',
    tokenAuthMethod: 'client_secret_basic',
    authorizeParams: {},
    profileMapping: IDENTITY_MAPPING,
    timeoutMs: config.profileProviderTimeoutMs,
    describesRequest: true,
  };
}
