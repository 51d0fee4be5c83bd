/** /v1/openapi.json, generated from the same route declarations that validate requests. */
import { z } from 'zod';
import type { ApiRouter, RouteDefinition } from './route';

const SECURITY: Record<string, string> = {
  organization: 'organizationApiKey',
  operator: 'operatorApiKey',
  candidate: 'candidateSession',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): object {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as object;
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parameters(route: RouteDefinition<any, any, any>, path: string) {
  const out: object[] = [];
  const add = (schema: z.ZodType | undefined, location: 'path' | 'query') => {
    if (!schema) return;
    const json = jsonSchema(schema, 'input') as { properties?: Record<string, object>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: location, required: location === 'path' || (json.required ?? []).includes(name), schema: property });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  for (const match of path.matchAll(/\{([A-Za-z0-9_]+)\}/g)) {
    if (!out.some((p) => (p as { name: string }).name === match[1])) {
      out.push({ name: match[1], in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  return out;
}

export interface MountedApiRouter {
  mountPath: string;
  api: ApiRouter;
}

export function buildOpenApiDocument(routers: MountedApiRouter[], info: { version: string; serverUrl: string }): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const { mountPath, api } of routers) {
    for (const route of api.routes) {
      const path = toOpenApiPath(`${mountPath.replace(/\/$/, '')}${route.path}`) || '/';
      const operation: Record<string, unknown> = {
        operationId: route.operationId,
        summary: route.summary,
        tags: route.tags,
        parameters: parameters(route, path),
        security: route.auth.length === 0 ? [] : route.auth.map((kind) => ({ [SECURITY[kind]!]: [] })),
        responses: {
          [String(route.status ?? 200)]: {
            description: 'Success',
            ...(route.response ? { content: { 'application/json': { schema: jsonSchema(route.response, 'output') } } } : {}),
          },
          default: { $ref: '#/components/responses/Error' },
        },
      };
      if (route.body) {
        operation.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } };
      }
      (paths[path] ??= {})[route.method] = operation;
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'hiring-integrations', version: info.version },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      securitySchemes: {
        organizationApiKey: { type: 'http', scheme: 'bearer', description: "The organization's API key (hik_…)" },
        operatorApiKey: { type: 'http', scheme: 'bearer', description: 'OPERATOR_API_KEY' },
        candidateSession: { type: 'http', scheme: 'bearer', description: 'Candidate session token (hic_…) issued by the connect callback' },
      },
      responses: {
        Error: {
          description: 'Error',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['error'],
                properties: {
                  error: {
                    type: 'object',
                    required: ['code', 'message', 'request_id'],
                    properties: {
                      code: { type: 'string' },
                      message: { type: 'string' },
                      param: { type: 'string' },
                      request_id: { type: 'string' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}
