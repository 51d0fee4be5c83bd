/**
 * /v1/openapi.json, generated from the same route declarations that validate requests
 * and from the zod schemas the handlers' views are typed with. Every operation lists its
 * success status and body, and every error status its declaration can lead to.
 */
import { z } from 'zod';
import type { ApiRouter, RouteDefinition } from './route';
import { errorSchema } from './common-schemas';
import { NON_JSON_SURFACES, SURFACE_TAGS } from './openapi-surfaces';

const SECURITY: Record<string, string> = {
  organization: 'organizationApiKey',
  operator: 'operatorApiKey',
  candidate: 'candidateSession',
};

const TAGS: { name: string; description: string }[] = [
  { name: 'organization', description: 'The calling organization: its record, API keys and profile apply settings. Operators create organizations.' },
  { name: 'applications', description: "Profile applications (SPEC 4.1): a candidate's verified profile instead of a resume; read them back per listing." },
  {
    name: 'job-feeds',
    description:
      "job_boards.post_jobs: an organization's open listings as an aggregator XML feed, a JSON feed, a sitemap and schema.org JobPosting JSON-LD, public and cacheable (docs/job-feeds.md).",
  },
  {
    name: 'job-distribution',
    description:
      'sourcing.distribute_jobs: distribution channels with their own feeds and tracked apply links, the `source` of applications and the attribution report (docs/job-distribution.md).',
  },
  {
    name: 'widget',
    description:
      "What the embeddable `<profile-apply>` element reads without credentials (CORS for the organization's allowed origins), and the script itself.",
  },
  {
    name: 'integrations',
    description:
      'Integration licenses: the action catalog, vertical packages, à la carte activation (SPEC 4.2), package subscriptions (SPEC 4.3) and the billing preview.',
  },
  {
    name: 'listings',
    description:
      "The organization's listings, managed by its ATS: create, upsert by external_id, update, close and reopen (only on hosts that let the plugin manage listings, such as the standalone host).",
  },
  {
    name: 'webhooks',
    description:
      'Webhook endpoints and their Standard Webhooks signed deliveries: signing secrets and their rotation, the delivery log, retry and the test event.',
  },
  {
    name: 'events',
    description: "The organization's events (kept EVENT_RETENTION_DAYS), newest first: catch up without webhooks, or check what was delivered.",
  },
  {
    name: 'billing',
    description:
      'Invoices (JSON, and a printable HTML or PDF document), the upcoming invoice, quotes, the billing account and sandbox payment method; operator calls across organizations and test clocks.',
  },
  {
    name: 'connections',
    description:
      "The organization's connections to its own accounts (SMTP, …) with encrypted credentials and a real test round trip, and the action runs that go through them: attempts, the counterpart's reference, stable error codes.",
  },
  {
    name: 'credentials',
    description:
      "Credential checks: what an applicant presents (W3C Verifiable Credentials as VC-JWT, Open Badges 3.0, self-reported) checked against a listing's requirements — signature, issuer DID, trust list, validity, Bitstring Status List — with evidence per requirement.",
  },
  {
    name: 'verifications',
    description:
      "One-time codes for the host (sms.two_factor_auth), like Twilio Verify: send a 6-digit code by SMS or email through the organization's connector, check it (10 minutes, 5 attempts, 5 sends per destination every 10 minutes).",
  },
  {
    name: 'scheduling',
    description:
      "Interview self-scheduling (scheduling.interview_scheduling): the candidate gets a signed link, picks a time the interviewers' CalDAV calendars and working hours leave open; the event is written to their calendars and an iTIP invitation sent.",
  },
  {
    name: 'timesheets',
    description:
      "Temp agencies (payroll.time_tracking): placements of workers at client companies with bill and pay rates in integer cents, weekly timesheets with overtime (FLSA weekly or California daily), approval by the client's contact through a signed link.",
  },
  {
    name: 'payouts',
    description:
      "Workers paid through the organization's Stripe Connect platform: KYC onboarding (connected account, hosted link) and state from account.updated (payouts.kyc_verification); instant payouts in integer cents, never twice per reference (payouts.instant_pay); the Connect webhook endpoint per connection.",
  },
  {
    name: 'privacy',
    description:
      "A candidate's data rights: exports of everything the organization holds about them (JSON and a readable view, by signed link), erasure across every store (provider tokens revoked, candidate.erased announced), legal holds.",
  },
  {
    name: 'audit',
    description:
      'The audit trail: every change made by an organization key, the operator or the host (and reads of a candidate record), hash-chained per organization so a changed or removed event is detected (hiring-integrations audit verify).',
  },
  {
    name: 'job-imports',
    description:
      'job_import.import_jobs: feeds an organization imports listings from (XML or JSON, on a schedule with conditional GET), each import an action run with its per-job error report.',
  },
  {
    name: 'board-applications',
    description:
      "job_boards.import_applications: the organization's signing secret for boards, and the signed endpoint boards post applications to (HMAC-SHA256, Standard Webhooks headers).",
  },
  {
    name: 'esign',
    description:
      "Signing built in (esign.send_offer, esign.send_agreement): templates with {{placeholders}}, envelopes whose PDF is made from them, a signed link to the signer (email, SMS), consent and a typed or drawn signature, the sealed PDF with an audit-trail page and a PDF digital signature (PAdES baseline, ETSI.CAdES.detached) with the organization's certificate.",
  },
  { name: 'operations', description: 'Liveness, readiness, Prometheus metrics and this document. Health checks are never rate limited.' },
  {
    name: 'shifts',
    description:
      'Restaurants (scheduling.shift_scheduling): shifts published for employees reach them as iTIP invitations (REQUEST, CANCEL; stable UID, growing SEQUENCE) and SMS with a signed confirmation link; a reminder before the start; a per-person webcal:// feed of their upcoming shifts.',
  },
  {
    name: 'payroll',
    description:
      "Payroll files: contractors' W-9 details (TIN last four digits only) and the contractor/1099 file of a tax year in integer cents (payroll.contractor_export); a finished day's worked hours, changes (old → new pay rate) and hires (payroll.payroll_sync); each delivered to the organization's SFTP server or downloaded, as an action run with its SHA-256.",
  },
  {
    name: 'pos',
    description:
      'Point of sale (hris.pos_sync): every current team member as one pos_team_member.v1 CSV for a POS whose employee import is a web page (Toast, Clover), as an action run with its SHA-256.',
  },
  {
    name: 'candidate-exports',
    description:
      'job_import.export_candidates: applications and candidates as CSV or HR Open JSON, streamed; downloaded, or delivered to SFTP now or on a schedule (docs/candidate-exports.md).',
  },
  {
    name: 'sourcing',
    description:
      'sourcing.source_candidates: search past applicants who consented to be contacted again, ranked; invite one to apply to a listing by email (docs/sourcing.md).',
  },
  {
    name: 'volunteers',
    description:
      'School volunteers (hris.volunteer_management): hours logged per volunteer in whole minutes, their totals, and the volunteer_hours.v1 CSV export of a period.',
  },
  ...SURFACE_TAGS,
];

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: invalid_json, parameter_missing, parameter_invalid, parameter_unknown, invalid_idempotency_key, or a code of the operation',
  401: 'No valid credential: missing_credentials, invalid_authorization_header, invalid_api_key, invalid_candidate_token',
  402: 'payment_required: the organization is suspended for non-payment (pay the open invoice to restore it)',
  403: 'A valid credential that may not do this: operator_only, credential_not_permitted, or a code of the operation (license_required, integration_disabled, …)',
  404: "No such resource (resource_missing), including another organization's",
  409: 'Conflict: idempotency_key_reused, idempotency_key_in_use (with Retry-After), or a state conflict of the operation',
  410: 'Gone: listing_closed',
  413: 'body_too_large: larger than BODY_LIMIT_BYTES',
  415: 'unsupported_media_type: bodies must be application/json',
  429: 'rate_limited: over the budget; Retry-After says when to retry',
  500: 'internal_error: a bug on our side, never bad input',
  502: 'provider_error: the profile provider answered something unusable',
  503: 'Unavailable (database, Redis or the profile provider): retry later; Retry-After when known',
};

/** The error statuses a route can answer: implied by its declaration, plus its own `errors`. */
export function errorStatuses(route: RouteDefinition<any, any, any>, fullPath: string): number[] {
  // 400 everywhere: any parameter, declared or not, is refused with NUL characters; 500 and 503 may meet any call.
  const statuses = new Set<number>([400, 500, 503]);
  const takesBody = route.method !== 'get' && route.method !== 'delete';
  if (route.auth.length > 0) {
    statuses.add(401);
    statuses.add(403);
  }
  if (/\{[^}]+\}/.test(fullPath)) statuses.add(404);
  if (route.idempotent) statuses.add(409);
  if (takesBody) {
    statuses.add(413);
    statuses.add(415);
  }
  // Limited routes, and every credential check (failed authentications have their own budget).
  if (route.rateLimit !== false || route.auth.length > 0) statuses.add(429);
  for (const status of route.errors ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

/** Components collected while converting schemas: named zod schemas (meta id) become $refs. */
class SchemaCollector {
  readonly schemas: Record<string, object> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): object {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, object>;
    delete json.$defs;
    for (const [name, def] of Object.entries(defs)) this.schemas[name] = rewriteRefs(def) as object;
    return rewriteRefs(json) as object;
  }
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(inner);
    }
    return out;
  }
  return value;
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** `/v1/organization` + `/` is `/v1/organization`, never `/v1/organization/`; `/` + `/healthz` is `/healthz`. */
export function joinPath(mountPath: string, routePath: string): string {
  const joined = `${mountPath.replace(/\/+$/, '')}/${routePath.replace(/^\/+/, '')}`.replace(/\/+$/, '');
  return joined === '' ? '/' : joined;
}

function parameters(route: RouteDefinition<any, any, any>, path: string, schemas: SchemaCollector) {
  const out: { name: string; in: string; required: boolean; schema: object }[] = [];
  const add = (schema: z.ZodType | undefined, location: 'path' | 'query') => {
    if (!schema) return;
    const json = schemas.convert(schema, 'input') as { properties?: Record<string, object>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: location, required: location === 'path' || (json.required ?? []).includes(name), schema: property });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  for (const match of path.matchAll(/\{([A-Za-z0-9_]+)\}/g)) {
    if (!out.some((p) => p.name === match[1])) out.push({ name: match[1]!, in: 'path', required: true, schema: { type: 'string' } });
  }
  if (route.idempotent) {
    out.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
  }
  return out;
}

function responseHeaders(limited: boolean) {
  const headers: Record<string, object> = { 'Request-Id': { $ref: '#/components/headers/Request-Id' } };
  if (limited) {
    headers.RateLimit = { $ref: '#/components/headers/RateLimit' };
    headers['RateLimit-Policy'] = { $ref: '#/components/headers/RateLimit-Policy' };
  }
  return headers;
}

export interface MountedApiRouter {
  mountPath: string;
  api: ApiRouter;
}

export function buildOpenApiDocument(routers: MountedApiRouter[], info: { version: string; serverUrl: string }): object {
  const paths: Record<string, Record<string, object>> = {};
  const schemas = new SchemaCollector();
  schemas.convert(errorSchema, 'output'); // registers components.schemas.Error
  for (const { mountPath, api } of routers) {
    for (const route of api.routes) {
      const path = toOpenApiPath(joinPath(mountPath, route.path));
      const limited = route.rateLimit !== false;
      const success: Record<string, object> = {};
      for (const status of [route.status ?? 200, ...(route.alsoAnswers ?? [])]) {
        const media = route.produces === undefined ? ['application/json'] : [route.produces].flat();
        const schema = () => (route.response ? schemas.convert(route.response, 'output') : { type: 'string' });
        // 304 Not Modified (a conditional GET whose validator matches) has no body.
        if (status === 304) {
          success['304'] = { description: 'Not Modified: the ETag or Last-Modified the client holds is current', headers: responseHeaders(limited) };
          continue;
        }
        // A redirect (a tracked apply link) has no body: where it leads is its Location.
        if (status === 302) {
          success['302'] = {
            description: 'Found: go to the Location header',
            headers: { ...responseHeaders(limited), Location: { schema: { type: 'string' } } },
          };
          continue;
        }
        success[String(status)] = {
          description: status === 201 ? 'Created' : status === 202 ? 'Accepted: the rest happens in the background' : 'Success',
          headers: responseHeaders(limited),
          ...(route.response || route.produces ? { content: Object.fromEntries(media.map((type) => [type, { schema: schema() }])) } : {}),
        };
      }
      const errors: Record<string, object> = {};
      for (const status of errorStatuses(route, path)) {
        if (success[String(status)]) continue;
        errors[String(status)] = { $ref: `#/components/responses/Error${status}` };
      }
      const operation: Record<string, unknown> = {
        operationId: route.operationId,
        summary: route.summary,
        tags: route.tags,
        parameters: parameters(route, path, schemas),
        security: route.auth.length === 0 ? [] : route.auth.map((kind) => ({ [SECURITY[kind]!]: [] })),
        responses: { ...success, ...errors },
      };
      if (route.body) {
        operation.requestBody = { required: true, content: { 'application/json': { schema: schemas.convert(route.body, 'input') } } };
      }
      (paths[path] ??= {})[route.method] = operation;
    }
  }
  for (const [path, item] of Object.entries(NON_JSON_SURFACES(schemas.convert.bind(schemas)))) paths[path] = { ...paths[path], ...item };

  const errorResponses: Record<string, object> = {};
  for (const [status, description] of Object.entries(ERROR_DESCRIPTIONS)) {
    errorResponses[`Error${status}`] = {
      description,
      headers: {
        'Request-Id': { $ref: '#/components/headers/Request-Id' },
        ...(status === '409' || status === '429' || status === '503' ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
      },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'hiring-integrations',
      version: info.version,
      description:
        'Profile applications and integration licenses for applicant tracking systems. Every error has the body `{"error":{"code","message","param","request_id"}}`; `Request-Id` on every response matches `request_id`.',
      license: { name: 'Apache License 2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: info.serverUrl }],
    tags: TAGS,
    paths,
    components: {
      schemas: schemas.schemas,
      securitySchemes: {
        organizationApiKey: { type: 'http', scheme: 'bearer', description: "The organization's API key (hik_…)" },
        operatorApiKey: { type: 'http', scheme: 'bearer', description: 'OPERATOR_API_KEY' },
        candidateSession: { type: 'http', scheme: 'bearer', description: 'Candidate session token (hic_…) posted by the connect popup; 30 minutes' },
        operatorBasic: { type: 'http', scheme: 'basic', description: 'Job dashboard only: any user name, OPERATOR_API_KEY as the password' },
      },
      headers: {
        'Request-Id': { description: 'Echoes a valid incoming X-Request-Id, else a generated req_…', schema: { type: 'string' } },
        RateLimit: {
          description: 'IETF RateLimit header: the policy name, remaining requests (r) and seconds to reset (t), e.g. "api";r=599;t=42',
          schema: { type: 'string' },
        },
        'RateLimit-Policy': {
          description: 'IETF RateLimit-Policy header: quota (q) per window in seconds (w), e.g. "api";q=600;w=60',
          schema: { type: 'string' },
        },
        'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
      },
      responses: errorResponses,
    },
  };
}
