/** The domain services the CLI needs, wired by hand: the CLI is a small composition root. */
import type { Config } from '../config';
import { OrganizationService } from '../domain/organizations/organization-service';
import { systemClock } from '../domain/shared/clock';
import type { Database } from '../storage/database';
import { KnexApiKeyRepository, KnexOrganizationRepository } from '../storage/organization-repository';
import { ListingsStore } from './listings-store';

export function operatorServices(db: Database, config: Config) {
  return {
    organizations: new OrganizationService(
      new KnexOrganizationRepository(db),
      new KnexApiKeyRepository(db),
      { rotationGraceSeconds: config.apiKeyRotationGraceSeconds },
      systemClock,
    ),
    listings: new ListingsStore(db),
  };
}
