/**
 * Parts of the host contract that are retired but still accepted, so a host written for an
 * earlier 1.x contract keeps activating: each is ignored, with one warning per activation
 * naming what replaced it. They leave the contract at its next major version (the contract
 * changelog in docs/embedding.md).
 */
import type { Logger } from '../kernel/logger';
import type { HostConnectors, PluginHost } from '../host/contract';

/** Host connector ports nothing calls any more, and what does the work instead. */
const RETIRED_CONNECTORS = {
  esign: {
    since: '1.1.0',
    replacement: 'offers and agreements are signed by the plugin itself (esign.send_offer, esign.send_agreement; see docs/esign.md)',
  },
} as const;

export type CurrentHostConnectors = Omit<HostConnectors, keyof typeof RETIRED_CONNECTORS>;

/** One warning for each retired part the host still passes. */
export function warnAboutRetiredHostFields(host: PluginHost, logger: Logger): void {
  for (const [port, { since, replacement }] of Object.entries(RETIRED_CONNECTORS)) {
    if (host.connectors?.[port as keyof HostConnectors] === undefined) continue;
    logger.warn(
      { host_field: `connectors.${port}`, retired_in_contract: since, replacement },
      `host.connectors.${port} is ignored since host contract ${since}: ${replacement}. Remove it from the host; contract 2.0.0 drops it.`,
    );
  }
}

/** The host's connector ports without the retired ones (never offered to a step). */
export function currentHostConnectors(connectors: HostConnectors | undefined): CurrentHostConnectors {
  const current: Record<string, unknown> = { ...connectors };
  for (const port of Object.keys(RETIRED_CONNECTORS)) delete current[port];
  return current as CurrentHostConnectors;
}
