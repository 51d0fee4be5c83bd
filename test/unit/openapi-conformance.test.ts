/** The conformance check itself: it must name undocumented operations, statuses and fields, and pass what the document says. */
import { strict as assert } from 'node:assert';
import { Router } from 'express';
import { z } from 'zod';
import { buildOpenApiDocument } from '../../src/platform/http/openapi';
import { defineRoute } from '../../src/platform/http/route';
import { checkResponses, type OpenApiDocument, type RecordedResponse } from '../helpers/openapi-conformance';

const widget = z.object({ id: z.string(), object: z.literal('widget'), size: z.number().int() });
const routes = [
  defineRoute({
    method: 'get',
    path: '/widgets/:widget_id',
    operationId: 'getWidget',
    summary: 'One widget',
    tags: ['t'],
    auth: ['organization'],
    response: widget,
    handler: async () => ({}),
  }),
  defineRoute({
    method: 'get',
    path: '/widgets/count',
    operationId: 'countWidgets',
    summary: 'How many',
    tags: ['t'],
    auth: [],
    rateLimit: false,
    response: z.object({ count: z.number() }),
    handler: async () => ({}),
  }),
];
const doc = buildOpenApiDocument([{ mountPath: '/v1', api: { name: 'widgets', router: Router(), routes } }], {
  version: '1',
  serverUrl: 'http://x',
}) as OpenApiDocument;

const json = (method: string, path: string, status: number, body: unknown): RecordedResponse => ({
  method,
  path,
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
  source: 'a test',
});
const error = (code: string) => ({ error: { code, message: 'm', request_id: 'req_1' } });

describe('OpenAPI conformance check', () => {
  it('passes responses the document describes (literal paths before templated ones)', () => {
    assert.deepEqual(
      checkResponses(doc, [
        json('GET', '/v1/widgets/wid_1', 200, { id: 'wid_1', object: 'widget', size: 3 }),
        json('GET', '/v1/widgets/count', 200, { count: 2 }),
        json('GET', '/v1/widgets/wid_2', 404, error('resource_missing')),
        json('GET', '/v1/nothing/here', 404, error('route_not_found')),
      ]),
      [],
    );
  });

  it('names the operation and status of an undocumented status, an undocumented field and an undocumented operation', () => {
    const problems = checkResponses(doc, [
      json('GET', '/v1/widgets/count', 429, error('rate_limited')),
      json('GET', '/v1/widgets/wid_1', 200, { id: 'wid_1', object: 'widget', size: 3, colour: 'red' }),
      json('GET', '/v1/widgets/wid_1', 401, { error: { code: 'x', message: 'm', request_id: 'r', secret: 1 } }),
      json('POST', '/v1/widgets/wid_1', 201, { id: 'wid_1' }),
    ]);
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems[0]!, /^GET \/v1\/widgets\/count → 429 not documented \(a test\)/);
    assert.match(problems[1]!, /^GET \/v1\/widgets\/\{widget_id\} → 200: body does not match the document: \/ must NOT have additional properties "colour"/);
    assert.match(problems[2]!, /^GET \/v1\/widgets\/\{widget_id\} → 401: body .*\/error must NOT have additional properties "secret"/);
    assert.match(problems[3]!, /^POST \/v1\/widgets\/\{widget_id\} → operation not documented/);
  });
});
