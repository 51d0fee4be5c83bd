/**
 * OpenAPI conformance over the whole test run: every test host records each response it
 * sends (method, path, status, content type, body); the root hook (setup.ts) checks them
 * against /v1/openapi.json with ajv and fails listing every undocumented operation,
 * status or field, e.g. `POST /v1/integrations/licenses/{action_key}/activate → 418 not documented`.
 * Under --parallel that hook runs after every file a worker runs, so each response is checked
 * once, when it is new, and each schema is compiled once per worker: checking everything again
 * after every file cost minutes of the suite.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
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

/** Responses not checked yet, how many were recorded in all, and what the checks found (kept until the run ends). */
let recorded: RecordedResponse[] = [];
let recordedInAll = 0;
const found = new Map<string, string>();
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
      recordedInAll += 1;
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
  return recordedInAll;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: object }>; $ref?: string }> }>>;
  components: { schemas: Record<string, object>; responses: Record<string, { content?: Record<string, { schema?: object }> }> };
}

const patterns = new Map<string, RegExp>();

function pathPattern(template: string): RegExp {
  let pattern = patterns.get(template);
  if (!pattern) {
    const literal = (part: string) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
    pattern = new RegExp(
      `^${template
        .split(/\{[^}]+\}/)
        .map(literal)
        .join('[^/]+')}$`,
    );
    patterns.set(template, pattern);
  }
  return pattern;
}

/** Literal paths win over templated ones (`/packages/archive` before `/packages/{slug}`). */
function findPath(doc: OpenApiDocument, path: string): string | undefined {
  // Express routes without `strict`: `/x/` is the operation of `/x` (the fuzz test sends both).
  const routed = path.length > 1 ? path.replace(/\/$/, '') : path;
  const candidates = Object.keys(doc.paths).filter((template) => pathPattern(template).test(routed));
  return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

/** Checks the responses recorded since the last call; returns every mismatch found so far, grouped by operation and status. */
export function conformanceMismatches(doc: OpenApiDocument | undefined = document): string[] {
  if (!doc) return [];
  const fresh = recorded;
  recorded = [];
  for (const [key, line] of problemsIn(doc, fresh)) found.set(key, line);
  return [...found.values()];
}

/** Checks `responses` against `doc`: one line per undocumented operation, status or body mismatch. */
export function checkResponses(doc: OpenApiDocument, responses: readonly RecordedResponse[]): string[] {
  return [...problemsIn(doc, responses).values()];
}

/** A schema's validator, compiled once per document (each compile carries every component schema). */
const validators = new WeakMap<OpenApiDocument, (schema: object) => ValidateFunction>();

function validatorsOf(doc: OpenApiDocument): (schema: object) => ValidateFunction {
  let validatorFor = validators.get(doc);
  if (!validatorFor) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const compiled = new Map<object, ValidateFunction>();
    validatorFor = (schema: object) => {
      let validate = compiled.get(schema);
      if (!validate) {
        validate = ajv.compile({ ...schema, components: { schemas: doc.components.schemas } });
        compiled.set(schema, validate);
      }
      return validate;
    };
    validators.set(doc, validatorFor);
  }
  return validatorFor;
}

/** The mismatches among `responses`, keyed so that one per operation, status and kind of mismatch is kept. */
function problemsIn(doc: OpenApiDocument, responses: readonly RecordedResponse[]): Map<string, string> {
  const problems = new Map<string, string>();
  if (responses.length === 0) return problems;
  const validatorFor = validatorsOf(doc);
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
  return problems;
}
