/**
 * The embeddable widget: the router that serves the <profile-apply> bundle (built by
 * scripts/build-widget.js into the manifest's `widget.asset`) at the `widget` router's
 * mount path, with BASE_URL stamped in so the script finds the API wherever it is hosted.
 */
import path from 'node:path';
import type { Config } from '../../kernel/config';
import { widgetRouter } from './http/widget-router';
import { PACKAGE_ROOT, type Manifest } from '../../platform/manifest/manifest';
import { CONFIG, MANIFEST } from '../../composition/infrastructure';
import type { PluginModule } from '../../platform/composition/plugin-module';

export const widgetModule: PluginModule = {
  name: 'widget',
  register() {
    // Nothing to register: the router reads the config and manifest the infrastructure registered.
  },
  routers: [
    {
      name: 'widget',
      create: (container, kit) => {
        const config = container.resolve<Config>(CONFIG);
        const manifest = container.resolve<Manifest>(MANIFEST);
        const mountPath = manifest.routers.find((r) => r.name === 'widget')?.mountPath ?? '/widgets';
        return widgetRouter(
          {
            assetPath: path.resolve(PACKAGE_ROOT, manifest.widget.asset),
            baseUrl: config.baseUrl,
            cdnUrl: config.cdnUrl,
            mountPath,
            element: manifest.widget.element,
            version: manifest.version,
          },
          kit.policy,
        );
      },
    },
  ],
};
