/**
 * A second process for the cross-process entitlement tests: it starts the standalone
 * host (activating the plugin with its own database pool and Redis connections, no
 * workers), then fires one hook for one organization every 10 ms through
 * PluginInstance.fireHook and prints a line whenever the gate's answer changes:
 *
 *   GATE {"ready":true}
 *   GATE {"at":1767000000000,"handled":false}
 *
 * Environment: the plugin's settings (DATABASE_URL, REDIS_URL, QUEUE_PREFIX, …) plus
 * GATE_ORG, GATE_HOOK and GATE_PAYLOAD (JSON). Stops on SIGTERM.
 */
import 'reflect-metadata';
import { loadConfig } from '../../src/kernel/config';
import { createLogger } from '../../src/platform/logging/pino-logger';
import { createStandaloneHost } from '../../src/standalone/host/standalone-host';

const say = (line: object) => process.stdout.write(`GATE ${JSON.stringify(line)}\n`);

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel });
  const host = await createStandaloneHost({ config, logger, runWorkers: false });
  const organizationId = process.env.GATE_ORG!;
  const hook = process.env.GATE_HOOK!;
  const payload = JSON.parse(process.env.GATE_PAYLOAD ?? '{}') as object;
  say({ ready: true });
  let last: boolean | undefined;
  let stopping = false;
  process.once('SIGTERM', () => {
    stopping = true;
  });
  while (!stopping) {
    const result = await host.plugin.fireHook(hook, organizationId, payload);
    const handled = result.handled.length > 0;
    if (handled !== last) {
      say({ at: Date.now(), handled, skipped: result.skipped, failed: result.failed });
      last = handled;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await host.close();
  process.exit(0);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
