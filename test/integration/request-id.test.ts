/** An incoming X-Request-Id is honoured when valid and echoed; anything else is replaced. */
import { strict as assert } from 'node:assert';
import { startTestHost, type TestHost } from '../helpers/test-host';

describe('request ids', function () {
  this.timeout(30_000);
  let t: TestHost;
  before(async () => {
    t = await startTestHost({ runWorkers: false });
  });
  after(() => t?.close());

  it('keeps a valid X-Request-Id: response headers and error bodies carry it', async () => {
    const traced = await t.request('GET', '/v1/organization', { headers: { 'x-request-id': 'trace-4bf92f3577b34da6a3ce929d0e0e4736' } });
    assert.equal(traced.status, 401);
    assert.equal(traced.headers.get('request-id'), 'trace-4bf92f3577b34da6a3ce929d0e0e4736');
    assert.equal(traced.headers.get('x-request-id'), 'trace-4bf92f3577b34da6a3ce929d0e0e4736');
    assert.equal(traced.body.error.request_id, 'trace-4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('replaces an invalid one (too long, spaces, control characters) with its own', async () => {
    for (const bad of ['x'.repeat(129), 'has space', 'quote"d', '']) {
      const response = await t.request('GET', '/healthz', { headers: { 'x-request-id': bad } });
      assert.match(response.headers.get('request-id') ?? '', /^req_[0-9A-Za-z]{20}$/, JSON.stringify(bad));
    }
  });
});
