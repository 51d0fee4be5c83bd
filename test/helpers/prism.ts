/**
 * Stoplight Prism (npm @stoplight/prism-cli) mocking a vendor's *published* API description
 * on a port the test chose: it validates each request against the description (a request the
 * vendor would refuse answers 422 with the violations) and answers from the description's
 * examples. The counterpart's contract is the vendor's, never one we wrote to agree with us.
 *
 * Keep only the operations a connector uses in `test/fixtures/<vendor>/` and note the
 * source and license there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { appendChildLog } from './log-capture';
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
  const child: ChildProcess = spawn(PRISM, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Prism's install-time analytics must not phone home from a test.
    env: { ...process.env, SCARF_ANALYTICS: 'false', NO_COLOR: '1' },
  });
  child.stdout!.on('data', (d: Buffer) => appendChildLog(`[prism] ${d.toString()}`));
  child.stderr!.on('data', (d: Buffer) => appendChildLog(`[prism] ${d.toString()}`));
  const deadline = Date.now() + 20_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode} (spec ${spec})`);
    if (Date.now() > deadline) throw new Error('prism did not listen within 20 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
