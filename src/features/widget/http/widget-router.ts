/**
 * Serves the <profile-apply> bundle that scripts/build-widget.js writes to dist/widgets:
 *
 *   GET /widgets/profile-apply.js          stable name: short cache, strong ETag (304 on match)
 *   GET /widgets/profile-apply.<hash>.js   content-hashed name: cached for a year, immutable
 *   GET /widgets/profile-apply.js.map      the source map
 *   GET /widgets/profile-apply.json        { element, version, url, versioned_url, integrity, ... }
 *   GET /widgets/locales/<locale>.<hash>.json  a catalog the widget fetches for its candidate's
 *                                           language: content-hashed, so immutable
 *
 * The bundle's line-1 marker is replaced with BASE_URL, so the script calls the API at
 * BASE_URL even when a CDN (CDN_URL) serves it; the hash covers the served bytes. Every
 * script response is public (`Access-Control-Allow-Origin: *`, so pages may add `integrity`
 * + `crossorigin`), `Cross-Origin-Resource-Policy: cross-origin` and `nosniff`; gzip when
 * the client accepts it. The file is re-read when it changes on disk (a rebuild).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Router, type Request, type Response } from 'express';
import { DomainError } from '../../../kernel/errors';
import type { ApiRouter, RouterPolicy } from '../../../platform/http/route';

export const WIDGET_BASE_MARKER = '"__PROFILE_APPLY_API_BASE__"';
export const STABLE_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=3600';
export const VERSIONED_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface WidgetRouterOptions {
  /** Absolute path of dist/widgets/profile-apply.js. */
  assetPath: string;
  /** The API base stamped into the served script (config.baseUrl). */
  baseUrl: string;
  /** Where pages load the script from (config.cdnUrl) and the mount path (/widgets). */
  cdnUrl: string;
  mountPath: string;
  element: string;
  version: string;
}

interface Variant {
  body: Buffer;
  etag: string;
}

export interface WidgetAsset {
  hash: string;
  integrity: string;
  identity: Variant;
  gzip: Variant;
  map: Buffer | undefined;
  mtimeMs: number;
}

/** The served script: the bundle with BASE_URL in place of its marker. */
export function loadWidgetAsset(assetPath: string, baseUrl: string): WidgetAsset {
  const { mtimeMs } = statSync(assetPath);
  const source = readFileSync(assetPath, 'utf8');
  const firstLineEnd = source.indexOf('\n');
  const firstLine = source.slice(0, firstLineEnd);
  if (!firstLine.includes(WIDGET_BASE_MARKER)) throw new Error(`${assetPath} has no base URL marker on line 1; rebuild it with scripts/build-widget.js`);
  const code = Buffer.from(firstLine.replace(WIDGET_BASE_MARKER, JSON.stringify(baseUrl.replace(/\/+$/, ''))) + source.slice(firstLineEnd), 'utf8');
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 12);
  let map: Buffer | undefined;
  try {
    map = readFileSync(`${assetPath}.map`);
  } catch {
    map = undefined;
  }
  return {
    hash,
    integrity: `sha384-${createHash('sha384').update(code).digest('base64')}`,
    identity: { body: code, etag: `"${hash}"` },
    gzip: { body: gzipSync(code, { level: 9 }), etag: `"${hash}-gz"` },
    map,
    mtimeMs,
  };
}

/** If-None-Match (RFC 9110 13.1.2): `*` or any listed tag, compared weakly. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}

const notBuilt = () => new DomainError('not_found', 'widget_not_built', 'The widget bundle has not been built; run `npm run build`');

export function widgetRouter(options: WidgetRouterOptions, policy: RouterPolicy): ApiRouter {
  let cached: WidgetAsset | undefined;
  const asset = (): WidgetAsset => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(options.assetPath).mtimeMs;
    } catch {
      throw notBuilt();
    }
    if (!cached || cached.mtimeMs !== mtimeMs) cached = loadWidgetAsset(options.assetPath, options.baseUrl);
    return cached;
  };
  const stableUrl = `${options.cdnUrl.replace(/\/+$/, '')}${options.mountPath}/profile-apply.js`;

  const sendScript = (req: Request, res: Response, cacheControl: string) => {
    const current = asset();
    const gzip = /\bgzip\b/i.test(req.get('Accept-Encoding') ?? '');
    const variant = gzip ? current.gzip : current.identity;
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('Cache-Control', cacheControl);
    res.setHeader('ETag', variant.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('SourceMap', 'profile-apply.js.map');
    if (matchesEtag(req.get('If-None-Match'), variant.etag)) {
      res.status(304).end();
      return;
    }
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', String(variant.body.length));
    res.status(200);
    if (req.method === 'HEAD') res.end();
    else res.end(variant.body);
  };

  const router = Router();
  if (policy.before.length > 0) router.use(...policy.before);
  router.get('/profile-apply.js', (req, res) => sendScript(req, res, STABLE_CACHE_CONTROL));
  router.get(/^\/profile-apply\.([0-9a-f]{12})\.js$/, (req, res, next) => {
    const requested = /^\/profile-apply\.([0-9a-f]{12})\.js$/.exec(req.path)?.[1];
    if (requested !== asset().hash) {
      next(new DomainError('not_found', 'resource_missing', 'No such widget version; load /widgets/profile-apply.js or see /widgets/profile-apply.json'));
      return;
    }
    sendScript(req, res, VERSIONED_CACHE_CONTROL);
  });
  // Catalogs: only names the build writes (a language tag and a content hash), from beside the bundle.
  const localesDir = path.join(path.dirname(options.assetPath), 'locales');
  router.get(/^\/locales\/([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*\.[0-9a-f]{12}\.json)$/, (req, res, next) => {
    let body: Buffer;
    try {
      body = readFileSync(path.join(localesDir, path.basename(req.path)));
    } catch {
      return next(new DomainError('not_found', 'resource_missing', 'No such widget catalog; see the widget for the current names'));
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', VERSIONED_CACHE_CONTROL);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.send(body);
  });
  router.get('/profile-apply.js.map', (_req, res, next) => {
    const { map } = asset();
    if (!map) return next(new DomainError('not_found', 'resource_missing', 'The widget was built without a source map'));
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', STABLE_CACHE_CONTROL);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.send(map);
  });
  router.get('/profile-apply.json', (_req, res) => {
    const current = asset();
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.json({
      element: options.element,
      version: options.version,
      url: stableUrl,
      versioned_url: stableUrl.replace(/\.js$/, `.${current.hash}.js`),
      integrity: current.integrity,
      api_base: options.baseUrl.replace(/\/+$/, ''),
      bytes: current.identity.body.length,
      gzip_bytes: current.gzip.body.length,
    });
  });
  router.use(policy.onError);
  return { name: 'widget', router, routes: [] };
}
