import type { RequestHandler } from 'express';
import type { PluginMetrics } from './metrics';

/**
 * Times every request a plugin router sees and records it by route template (never the
 * raw path, whose ids would explode the label set) and status. A request no route
 * matched is recorded as "unmatched". Once per request, however many routers it passes
 * through: the plugin runs it through oncePerRequest.
 */
export function httpMetrics(metrics: PluginMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const template = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof template === 'string' ? `${req.baseUrl}${template === '/' && req.baseUrl ? '' : template}` || '/' : 'unmatched';
      metrics.recordHttpRequest(req.method, route, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
