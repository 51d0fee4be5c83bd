/** The OAuth 2.0 / OpenID Connect provider candidates apply with, or the built-in sandbox provider. */
import { choice, flag, integer, text, url } from '../setting-kinds';
import { authorizeParams, profileMapping, scopeList } from '../value-parsers';

const HTTP = ['http', 'https'] as const;

export const PROFILE_PROVIDER = {
  title: 'Profile provider',
  intro:
    'Either PROFILE_PROVIDER_ISSUER (OpenID Connect discovery) or the three endpoint URLs, with the client id and secret. With neither, candidates use the built-in sandbox provider (not in production unless SANDBOX_PROVIDER_ENABLED=true).',
  settings: {
    PROFILE_PROVIDER_ISSUER: url({
      description:
        'Issuer URL of an OpenID Connect provider: the authorize and token endpoints (and, unless PROFILE_PROVIDER_PROFILE_URL is set, the userinfo endpoint as profile API) are read from its /.well-known/openid-configuration. An alternative to the three endpoint URLs. With the userinfo endpoint, "openid" is always requested (scopes default to "openid profile") and, unless PROFILE_PROVIDER_PROFILE_MAPPING says otherwise, the standard claims are read: sub (the candidate), name, profile (the profile URL).',
    }),
    PROFILE_PROVIDER_AUTHORIZE_URL: url({
      schemes: HTTP,
      description: 'OAuth 2.0 authorize endpoint of the profile provider. Unset (and no PROFILE_PROVIDER_ISSUER): the built-in sandbox provider.',
    }),
    PROFILE_PROVIDER_TOKEN_URL: url({ schemes: HTTP, description: 'OAuth 2.0 token endpoint of the profile provider.' }),
    PROFILE_PROVIDER_PROFILE_URL: url({ schemes: HTTP, description: 'Profile API endpoint (GET, bearer token) of the profile provider.' }),
    PROFILE_PROVIDER_CLIENT_ID: text({ description: 'OAuth client id at the profile provider.' }),
    PROFILE_PROVIDER_CLIENT_SECRET: text({ secret: true, description: 'OAuth client secret at the profile provider.' }),
    PROFILE_PROVIDER_TOKEN_AUTH_METHOD: choice(['client_secret_basic', 'client_secret_post'], {
      default: 'client_secret_basic',
      description:
        'How the client authenticates at the token endpoint (code exchange and refresh): HTTP Basic (the OAuth 2.0 default) or client_id and client_secret in the form body.',
    }),
    PROFILE_PROVIDER_SCOPES: text({
      default: 'profile skills credentials experience',
      parse: scopeList,
      description:
        'Scopes requested from the profile provider, separated by spaces or commas. Replaces the default list, so keep the data scopes: e.g. "openid profile skills credentials experience offline_access" (a list without them makes a scope-limiting provider return no skills).',
    }),
    PROFILE_PROVIDER_SCOPE_DELIMITER: choice(['space', 'comma', 'plus'], {
      default: 'space',
      description: 'How the scopes are joined in the authorize request (space per RFC 6749; some providers want commas).',
    }),
    PROFILE_PROVIDER_AUTHORIZE_PARAMS: text({
      parse: authorizeParams,
      description:
        'Extra authorize request parameters in query-string form, e.g. "prompt=consent&access_type=offline" (what some providers need to issue a refresh token). OAuth protocol parameters (client_id, redirect_uri, state, …) are refused.',
    }),
    PROFILE_PROVIDER_PROFILE_MAPPING: text({
      parse: profileMapping,
      description:
        'JSON: where the profile API answer keeps each field, for a provider whose JSON differs from ours, e.g. {"id":"user.id","skills":{"path":"expertise","name":"label"}}. Unset: our shape.',
    }),
    SANDBOX_PROVIDER_ENABLED: flag({ description: 'Serve the sandbox profile provider. Default: on unless NODE_ENV=production.' }),
    SANDBOX_INTERNAL_URL: url({
      schemes: HTTP,
      description:
        "Where servers (the API's token exchange, workers' profile imports) reach the sandbox provider's token and profile endpoints. Default: BASE_URL. The browser always uses BASE_URL.",
    }),
    PROFILE_PROVIDER_TIMEOUT_MS: integer({
      default: '5000',
      minimum: 1,
      maximum: 600_000,
      description: 'Deadline of each request to the profile provider (profile API, token endpoint); a timeout counts as an outage and is retried.',
    }),
    PROFILE_IMPORT_WAIT_MS: integer({
      default: '8000',
      minimum: 1,
      maximum: 600_000,
      description:
        'Longest the apply endpoint waits for an on-demand profile import (no fresh snapshot); past it, 503 provider_unavailable while the import finishes in the background.',
    }),
  },
} as const;
