/**
 * /v1/openapi.json checked by tools written by others: swagger-parser validates it
 * against the OpenAPI 3.1 schema and Redocly lints it (recommended rules: no error).
 * Live responses are checked against it over the whole run (test/helpers/openapi-conformance.ts).
 */
import { strict as assert } from 'node:assert';
import SwaggerParser from '@apidevtools/swagger-parser';
import { joinPath } from '../../src/platform/http/openapi';
import { startTestHost, type TestHost } from '../helpers/test-host';

// Redocly's core is ESM only; TypeScript would compile import() to require().
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

describe('OpenAPI document', function () {
  this.timeout(60_000);
  let t: TestHost;
  let doc: any;

  before(async () => {
    t = await startTestHost({ runWorkers: false });
    doc = (await t.request('GET', '/v1/openapi.json')).body;
  });
  after(() => t?.close());

  it('is valid OpenAPI 3.1 for swagger-parser', async () => {
    await SwaggerParser.validate(structuredClone(doc));
  });

  it('passes Redocly lint (recommended) with no error', async () => {
    const redocly = await importEsm('@redocly/openapi-core');
    const config = await redocly.createConfig({ extends: ['recommended'] });
    const problems = await redocly.lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p: any) => p.severity === 'error').map((p: any) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
    assert.deepEqual(errors, []);
  });

  it('has no trailing-slash path, and joins mount and route paths cleanly', () => {
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p !== '/' && p.endsWith('/')),
      [],
    );
    assert.equal(joinPath('/v1/organization', '/'), '/v1/organization');
    assert.equal(joinPath('/', '/healthz'), '/healthz');
    assert.equal(joinPath('/v1/', '/openapi.json'), '/v1/openapi.json');
    assert.ok(doc.paths['/v1/organization'].get);
    assert.ok(doc.paths['/v1/organization/settings'].patch);
  });

  it('gives every JSON operation its success status and body schema, and its error statuses', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        // A redirect (302: a tracked apply link) succeeds with no body.
        const success = Object.keys(op.responses).filter((s) => /^2|^302$/.test(s));
        if (success.length === 0) missing.push(`${method} ${path}: no success response`);
        for (const status of success)
          if (!op.responses[status].content && status !== '204' && status !== '302') missing.push(`${method} ${path} ${status}: no body schema`);
        if (!op.tags?.length) missing.push(`${method} ${path}: no tag`);
      }
    }
    assert.deepEqual(missing, []);
    const apply = doc.paths['/v1/opportunities/listings/{listing_id}/applications/profile'].post;
    assert.deepEqual(Object.keys(apply.responses).sort(), ['201', '400', '401', '402', '403', '404', '409', '410', '413', '415', '429', '500', '502', '503']);
    assert.equal(apply.responses['201'].content['application/json'].schema.$ref, '#/components/schemas/SubmittedApplication');
    const activate = doc.paths['/v1/integrations/licenses/{action_key}/activate'].post;
    assert.ok(activate.responses['202'] && activate.responses['200']);
    assert.ok(doc.paths['/v1/organization/api_keys/rotate'].post.responses['201']);
    assert.equal(doc.paths['/healthz'].get.responses['429'], undefined, 'health checks are never limited');
  });

  it('describes the billing surface: invoice bodies, the printable document as HTML or PDF, and 402 where a suspension refuses', () => {
    const ok = (path: string, method: string) => doc.paths[path][method].responses['200'];
    assert.equal(ok('/v1/billing/invoices/{invoice_id}', 'get').content['application/json'].schema.$ref, '#/components/schemas/Invoice');
    assert.deepEqual(Object.keys(ok('/v1/billing/invoices/{invoice_id}/document', 'get').content).sort(), ['application/pdf', 'text/html']);
    assert.equal(ok('/v1/integrations/packages/{package_slug}/switch', 'post').content['application/json'].schema.$ref, '#/components/schemas/PackageSwitch');
    assert.ok(doc.components.schemas.Catalog.properties.billing_rules);
    assert.ok(doc.components.schemas.BillingPreview.properties.quote);
    for (const [path, method] of [
      ['/v1/integrations/licenses/{action_key}/activate', 'post'],
      ['/v1/integrations/packages/{package_slug}/subscribe', 'post'],
      ['/v1/integrations/packages/{package_slug}/switch', 'post'],
      ['/v1/opportunities/listings/{listing_id}/applications/profile', 'post'],
    ] as const) {
      assert.ok(doc.paths[path][method].responses['402'], `${method} ${path} declares 402`);
    }
    for (const action of ['activate', 'deactivate']) {
      assert.ok(
        doc.paths[`/v1/integrations/licenses/{action_key}/${action}`].post.parameters.some((p: any) => p.name === 'quote'),
        `${action} takes a quote`,
      );
    }
    assert.ok(doc.tags.some((t: any) => t.name === 'billing' && t.description));
  });

  it('describes tags, security schemes, examples and the non-JSON surfaces', () => {
    for (const tag of doc.tags) assert.ok(tag.description, `tag ${tag.name} has a description`);
    const used = new Set(Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item).flatMap((op) => op.tags)));
    for (const name of used)
      assert.ok(
        doc.tags.some((t: any) => t.name === name),
        `tag ${name} is declared`,
      );
    assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['candidateSession', 'operatorApiKey', 'operatorBasic', 'organizationApiKey']);
    assert.ok(doc.paths['/v1/opportunities/listings/{listing_id}/applications/profile'].post.requestBody.content['application/json'].schema.example);
    assert.ok(doc.components.schemas.SubmittedApplication.example);
    for (const path of ['/v1/connect/profile', '/v1/connect/profile/callback', '/widgets/profile-apply.js', '/operator/jobs', '/host/v1/hooks/{hook_name}']) {
      assert.ok(doc.paths[path], `${path} is described`);
    }
  });
});
