/**
 * OpenAPI conformance over the whole test run: every test host records each response it
 * sends (method, path, status, content type, body); the root hook (setup.ts) checks them
 * all against /v1/openapi.json with ajv and fails listing every undocumented operation,
 * status or field, e.g. `POST /v1/integrations/licenses/{action_key}/activate → 418 not documented`.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export interface RecordedResponse {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: string;
  /** The test file that caused it (mocha's current test title path, when known). */
  source: string;
}

const recorded: RecordedResponse[] = [];
let document: OpenApiDocument | undefined;
let currentTest = '';

/** Paths that are not the plugin's API: the sandbox mimics an external provider, demo pages are HTML, bull-board has its own API. */
const NOT_OURS = [/^\/sandbox(\/|$)/, /^\/demo(\/|$)/, /^\/operator\/jobs\/./, /^\/favicon\.ico$/];
const MAX_BODY = 256 * 1024;

export function setCurrentTest(title: string): void {
  currentTest = title;
}

/** Records every response `server` sends. Call before the app's request listener is added. */
export function recordResponses(server: Server): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_BODY) return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += buffer.length;
      chunks.push(buffer);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    (res as unknown as { write: unknown }).write = (...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    };
    (res as unknown as { end: unknown }).end = (...args: unknown[]) => {
      keep(args[0], args[1]);
      return end(...args);
    };
    const source = currentTest;
    // Express rewrites req.url inside mounted routers: keep the path as it arrived.
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    res.on('finish', () => {
      const encoding = String(res.getHeader('content-encoding') ?? '');
      recorded.push({
        method: (req.method ?? 'GET').toUpperCase(),
        path,
        status: res.statusCode,
        contentType: String(res.getHeader('content-type') ?? ''),
        body: encoding && encoding !== 'identity' ? '' : Buffer.concat(chunks).toString('utf8'),
        source,
      });
    });
  });
}

/** The document the responses are checked against (the first test host's). */
export function rememberDocument(doc: unknown): void {
  document ??= doc as OpenApiDocument;
}

export function hasDocument(): boolean {
  return document !== undefined;
}

export function recordedCount(): number {
  return recorded.length;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }>; $ref?: string }> }>>;
  components: { schemas: Record<string, object>; responses: Record<string, { content?: Record<string, { schema?: object }> }> };
}

function pathPattern(template: string): RegExp {
  const literal = (part: string) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  return new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map(literal)
      .join('[^/]+')}$`,
  );
}

/** Literal paths win over templated ones (`/packages/archive` before `/packages/{slug}`). */
function findPath(doc: OpenApiDocument, path: string): string | undefined {
  // Express routes without `strict`: `/x/` is the operation of `/x` (the fuzz test sends both).
  const routed = path.length > 1 ? path.replace(/\/$/, '') : path;
  const candidates = Object.keys(doc.paths).filter((template) => pathPattern(template).test(routed));
  return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

/** Checks every recorded response; returns one line per mismatch, grouped by operation and status. */
export function conformanceMismatches(doc: OpenApiDocument | undefined = document): string[] {
  return doc ? checkResponses(doc, recorded) : [];
}

/** Checks `responses` against `doc`: one line per undocumented operation, status or body mismatch. */
export function checkResponses(doc: OpenApiDocument, responses: readonly RecordedResponse[]): string[] {
  if (responses.length === 0) return [];
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
  const validatorFor = (schema: object) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: { schemas: doc.components.schemas } });
      compiled.set(schema, validate);
    }
    return validate;
  };
  const problems = new Map<string, string>();
  for (const response of responses) {
    if (response.method === 'OPTIONS' || response.method === 'HEAD') continue;
    if (NOT_OURS.some((pattern) => pattern.test(response.path))) continue;
    let json: unknown;
    const isJson = /application\/json/.test(response.contentType);
    if (isJson && response.body) {
      try {
        json = JSON.parse(response.body);
      } catch {
        json = undefined;
      }
    }
    const template = findPath(doc, response.path);
    const operation = template ? doc.paths[template]![response.method.toLowerCase()] : undefined;
    if (!template || !operation) {
      const code = (json as { error?: { code?: string } } | undefined)?.error?.code;
      if (response.status === 404 && code === 'route_not_found') continue;
      const key = `${response.method} ${template ?? response.path} → operation not documented`;
      problems.set(key, `${key} (status ${response.status}; ${response.source})`);
      continue;
    }
    const label = `${response.method} ${template} → ${response.status}`;
    let documented = operation.responses[String(response.status)];
    if (!documented) {
      problems.set(`${label} status`, `${label} not documented (${response.source}): ${response.body.slice(0, 200)}`);
      continue;
    }
    if (documented.$ref) documented = doc.components.responses[documented.$ref.split('/').pop()!]!;
    if (!isJson) continue;
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) {
      problems.set(`${label} content`, `${label}: answered JSON, but the document declares no JSON body (${response.source})`);
      continue;
    }
    const validate = validatorFor(schema);
    if (!validate(json)) {
      const errors = (validate.errors ?? []).map(
        (e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : ''}`,
      );
      const key = `${label} body ${errors.join('; ')}`;
      problems.set(key, `${label}: body does not match the document: ${errors.join('; ')} (${response.source}): ${response.body.slice(0, 300)}`);
    }
  }
  return [...problems.values()];
}
