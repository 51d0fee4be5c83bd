/**
 * Stoplight Prism (npm @stoplight/prism-cli) mocking a vendor's *published* API description
 * on a port the test chose: it validates each request against the description (a request the
 * vendor would refuse answers 422 with the violations) and answers from the description's
 * examples. The counterpart's contract is the vendor's, never one we wrote to agree with us.
 *
 * Keep only the operations a connector uses in `test/fixtures/<vendor>/` and note the
 * source and license there.
 */
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { startChildServer } from './child-server';
import { freePort } from './processes';

export interface PrismServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const PRISM = path.join(PACKAGE_ROOT, 'node_modules/.bin/prism');

/**
 * @param spec path of the OpenAPI document (YAML or JSON)
 * @param options.dynamic answer with generated data instead of the examples
 */
export async function startPrism(spec: string, options: { dynamic?: boolean } = {}): Promise<PrismServer> {
  const port = await freePort();
  const args = ['mock', spec, '--host', '127.0.0.1', '--port', String(port), ...(options.dynamic ? ['--dynamic'] : [])];
  const server = await startChildServer({
    name: 'prism',
    command: PRISM,
    args,
    // Prism's install-time analytics must not phone home from a test.
    env: { ...process.env, SCARF_ANALYTICS: 'false', NO_COLOR: '1' },
    port,
    readyWithinMs: 20_000,
    hint: `spec ${spec}`,
  });
  return { url: `http://127.0.0.1:${port}`, port, stop: server.stop };
}
