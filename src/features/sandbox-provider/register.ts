/**
 * The sandbox profile provider (test mode and the demo only): its fault switches and the
 * `sandbox-provider` router, which answers 404 when the sandbox is disabled.
 */
import type { Config } from '../../kernel/config';
import { CONFIG } from '../../composition/infrastructure';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { SandboxFaults } from './domain/faults';
import { sandboxRouter } from './http/sandbox-router';

export const sandboxProviderModule: PluginModule = {
  name: 'sandbox-provider',
  register(container, { config }) {
    // Faults can be switched on only outside production.
    container.register(SandboxFaults, { useValue: new SandboxFaults(config.env === 'production') });
  },
  routers: [
    {
      name: 'sandbox-provider',
      create: (container, kit) =>
        sandboxRouter({ config: container.resolve<Config>(CONFIG), db: container.resolve<Database>(DATABASE), faults: container.resolve(SandboxFaults), kit }),
    },
  ],
};
