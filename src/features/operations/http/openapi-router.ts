import { defineRoute, type RouteDefinition } from '../../../platform/http/route';
import { openApiDocumentSchema } from './operations-schemas';

export function openApiRoutes(document: () => object): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      operationId: 'getOpenApi',
      summary: 'This API described in OpenAPI 3.1',
      tags: ['operations'],
      auth: [],
      response: openApiDocumentSchema,
      handler: async () => document(),
    }),
  ];
}
