/** What a feature's router factory gets to build its routers with. */
import type { ApiRouter, RouteDefinition, RouterPolicy } from './route';

export interface RouterKit {
  /** For hand-built routers (pages, OAuth redirects): the same request id and error model. */
  policy: RouterPolicy;
  /** Builds a router from route declarations with authentication, rate limits and body parsing. */
  build(name: string, routes: RouteDefinition<any, any, any>[]): ApiRouter;
}
