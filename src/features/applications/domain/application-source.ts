/**
 * Where an application came from: the tracked apply links of `sourcing.distribute_jobs`
 * carry an opaque, signed `source` token that the apply request passes on. The feature that
 * issues the tokens verifies them; a token that does not verify for this organization and
 * listing is refused (400 source_invalid), never stored.
 */
export interface ApplicationSources {
  /** The channel name the token stands for, or undefined when it does not verify for this listing. */
  channelOf(organizationId: string, listingId: string, token: string): string | undefined;
}

export const APPLICATION_SOURCES = Symbol('ApplicationSources');

/** Without the distribution feature no token verifies. */
export const noApplicationSources: ApplicationSources = { channelOf: () => undefined };
