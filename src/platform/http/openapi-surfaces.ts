/**
 * The parts of the service that are not JSON operations, described so that a reader of
 * /v1/openapi.json finds them: the connect popup (HTML pages and redirects), the widget
 * script, the job dashboard, and the standalone host's hook endpoint.
 */
import { z } from 'zod';
import { MESSAGE_LINK_SURFACES, MESSAGE_LINK_TAG } from './openapi-message-links';
import { SMS_WEBHOOK_SURFACES, SMS_WEBHOOK_TAG } from './openapi-sms-webhooks';

type Convert = (schema: z.ZodType, io: 'input' | 'output') => object;

export const SURFACE_TAGS = [
  {
    name: 'connect',
    description: 'The OAuth connect popup the widget opens: HTML pages and redirects, not JSON. Rate limited per client IP with its own budget.',
  },
  { name: 'jobs dashboard', description: 'bull-board for operators (HTML and its own JSON API); HTTP Basic with the operator key as password, or Bearer.' },
  {
    name: 'standalone host',
    description: 'Endpoints of the reference host (`hiring-integrations serve`), not of the plugin: an ATS embedding the plugin fires hooks in-process.',
  },
  MESSAGE_LINK_TAG,
  SMS_WEBHOOK_TAG,
];

const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const errorRef = (status: number) => ({ $ref: `#/components/responses/Error${status}` });
/** A browser form's body (every field a string), as the connect flow's redirect mode posts it. */
const formBody = (fields: Record<string, string | undefined>) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required: Object.keys(fields),
        properties: Object.fromEntries(
          Object.entries(fields).map(([name, description]) => [name, description ? { type: 'string', description } : { type: 'string' }]),
        ),
      },
    },
  },
});

export const hookResultSchema = z
  .object({
    object: z.literal('hook_result'),
    hook: z.string().meta({ example: 'interview.scheduled' }),
    organization_id: z.string(),
    handled: z.array(z.string()),
    skipped: z.array(z.string()),
    failed: z.array(z.string()),
    outcomes: z.array(
      z.object({
        handler: z.string(),
        action: z.string(),
        status: z.enum(['ran', 'skipped', 'failed']),
        reason: z.string().optional(),
        result: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
  })
  .meta({ id: 'HookResult' });

export const widgetManifestSchema = z
  .object({
    element: z.string().meta({ example: 'profile-apply' }),
    version: z.string(),
    url: z.string(),
    versioned_url: z.string(),
    integrity: z.string().meta({ example: 'sha384-…' }),
    api_base: z.string(),
    bytes: z.number().int(),
    gzip_bytes: z.number().int(),
  })
  .meta({ id: 'WidgetManifest' });

const hookBody = z.object({ organization_id: z.string(), payload: z.record(z.string(), z.unknown()).optional() }).meta({
  example: {
    organization_id: 'org_5fGh7JkL9mNp2QrS4tUv',
    payload: { interview_id: 'int_42', candidate: { name: 'Ada Lovelace', email: 'ada@example.com' }, starts_at: '2026-12-01T10:00:00+01:00' },
  },
});

export function NON_JSON_SURFACES(convert: Convert): Record<string, Record<string, object>> {
  const connectQuery = [
    { name: 'organization_id', in: 'query', required: true, schema: { type: 'string' } },
    { name: 'listing_id', in: 'query', required: true, schema: { type: 'string' } },
    {
      name: 'origin',
      in: 'query',
      required: true,
      description: "The listing page's origin; must be one of the organization's allowed_origins",
      schema: { type: 'string' },
    },
    { name: 'return_to', in: 'query', required: false, description: 'Redirect mode: the listing page URL to come back to', schema: { type: 'string' } },
    {
      name: 'client_state',
      in: 'query',
      required: false,
      description: "Redirect mode: the widget's nonce (16–128 of A-Za-z0-9_-)",
      schema: { type: 'string' },
    },
  ];
  return {
    ...MESSAGE_LINK_SURFACES,
    ...SMS_WEBHOOK_SURFACES,
    '/v1/connect/profile': {
      get: {
        operationId: 'startConnect',
        summary: 'Connect popup: starts OAuth (state, PKCE S256) with the profile provider',
        tags: ['connect'],
        security: [],
        parameters: connectQuery,
        responses: {
          '302': { description: "Redirect to the provider's consent page" },
          '200': html('A show-only page explaining why the flow cannot start (origin_not_allowed, listing_unavailable, …)'),
          '400': html('invalid_return_to and other refused starts, shown as a page'),
          '429': html('Too many attempts from this network (Retry-After)'),
          '503': html('No profile provider is configured'),
        },
      },
      post: {
        operationId: 'startConnectInThisTab',
        summary:
          "Redirect mode (the browser blocked the popup): the widget's form POST from the listing page; the page's Origin is checked and return_to must be one of the organization's return_urls",
        tags: ['connect'],
        security: [],
        requestBody: formBody(Object.fromEntries(connectQuery.map((p) => [p.name, p.description]))),
        responses: {
          '302': { description: "Redirect to the provider's consent page" },
          '200': html('A page that returns to the listing page with an error result code (listing_unavailable, …), or explains why the flow cannot start'),
          '400': html('invalid_return_to (not a registered return URL, or the POST came from another origin) and other refused starts, shown as a page'),
          '429': html('Too many attempts from this network (Retry-After)'),
          '503': html('No profile provider is configured'),
        },
      },
    },
    '/v1/connect/profile/result': {
      post: {
        operationId: 'exchangeConnectResult',
        summary:
          "Redirect mode, back on the listing page: the widget trades the single-use result code from the URL fragment for the connect result (once, from the flow's origin)",
        tags: ['connect'],
        security: [],
        requestBody: formBody({ code: undefined, client_state: undefined }),
        responses: {
          '200': {
            description:
              'The connect result, as the popup would have posted it (profile-apply:authorized with a fresh candidate_token, or profile-apply:error)',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['source', 'type'], properties: { source: { type: 'string' }, type: { type: 'string' } } },
              },
            },
          },
          '400': errorRef(400),
          '429': errorRef(429),
          '503': errorRef(503),
        },
      },
    },
    '/widgets/locales/{file}': {
      get: {
        operationId: 'getWidgetCatalog',
        summary: "A translation catalog of the widget (es, fr, de, pt, ar), content-hashed and immutable; fetched by the widget for the candidate's language",
        tags: ['widget'],
        security: [],
        parameters: [
          {
            name: 'file',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: '^[a-z]{2}\\.[0-9a-f]{12}\\.json$' },
            example: 'es.403819cd3a5b.json',
          },
        ],
        responses: {
          '200': {
            description: 'The catalog: message keys to strings',
            content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
          },
          '404': errorRef(404),
        },
      },
    },
    '/v1/connect/profile/callback': {
      get: {
        operationId: 'connectCallback',
        summary:
          'Connect popup: the provider redirects here; the page posts the candidate session to window.opener (or navigates back in redirect mode) and closes',
        tags: ['connect'],
        security: [],
        parameters: [
          { name: 'code', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'state', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'error', in: 'query', required: false, schema: { type: 'string' } },
        ],
        responses: {
          '200': html(
            "The result page: one postMessage to the listing page's origin, and the same result as JSON in the element with id `hi-popup-result` ({target_origin, message})",
          ),
          '400': html('state_mismatch and other refused callbacks'),
          '429': html('Too many attempts from this network'),
          '503': html('The provider could not be reached'),
        },
      },
    },
    '/widgets/profile-apply.js': {
      get: {
        operationId: 'getWidgetScript',
        summary: 'The `<profile-apply>` custom element (short cache, strong ETag)',
        tags: ['widget'],
        security: [],
        responses: {
          '200': { description: 'The script', content: { 'text/javascript': { schema: { type: 'string' } } } },
          '304': { description: 'Not modified (If-None-Match)' },
        },
      },
    },
    '/widgets/profile-apply.{hash}.js': {
      get: {
        operationId: 'getVersionedWidgetScript',
        summary: 'The script under its content hash (immutable); any other hash is 404',
        tags: ['widget'],
        security: [],
        parameters: [{ name: 'hash', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{12}$' } }],
        responses: {
          '200': { description: 'The script', content: { 'text/javascript': { schema: { type: 'string' } } } },
          '304': { description: 'Not modified' },
          '404': errorRef(404),
        },
      },
    },
    '/widgets/profile-apply.js.map': {
      get: {
        operationId: 'getWidgetSourceMap',
        summary: "The widget's source map",
        tags: ['widget'],
        security: [],
        responses: {
          '200': {
            description: 'Source map v3',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['version', 'mappings'], properties: { version: { type: 'integer' }, mappings: { type: 'string' } } },
              },
            },
          },
          '404': errorRef(404),
        },
      },
    },
    '/widgets/profile-apply.json': {
      get: {
        operationId: 'getWidgetManifest',
        summary: 'Where the widget is and its Subresource Integrity hash, for pinning a version',
        tags: ['widget'],
        security: [],
        responses: { '200': { description: 'Widget manifest', content: { 'application/json': { schema: convert(widgetManifestSchema, 'output') } } } },
      },
    },
    '/operator/jobs': {
      get: {
        operationId: 'getJobsDashboard',
        summary: 'The job dashboard (bull-board UI; its own JSON API lives under /operator/jobs/api)',
        tags: ['jobs dashboard'],
        security: [{ operatorBasic: [] }, { operatorApiKey: [] }],
        responses: {
          '200': html('The dashboard'),
          '401': errorRef(401),
          '403': errorRef(403),
          '404': errorRef(404),
          '429': errorRef(429),
        },
      },
    },
    '/host/v1/hooks/{hook_name}': {
      post: {
        operationId: 'fireHook',
        summary: "Fire a host hook for an organization; each handler runs only if the organization holds its action's license",
        tags: ['standalone host'],
        security: [{ operatorApiKey: [] }],
        parameters: [{ name: 'hook_name', in: 'path', required: true, schema: { type: 'string', example: 'interview.scheduled' } }],
        requestBody: { required: true, content: { 'application/json': { schema: convert(hookBody, 'input') } } },
        responses: {
          '200': { description: 'What each handler did', content: { 'application/json': { schema: convert(hookResultSchema, 'output') } } },
          ...Object.fromEntries([400, 401, 403, 404, 413, 415, 429, 500, 503].map((s) => [String(s), errorRef(s)])),
        },
      },
    },
  };
}
