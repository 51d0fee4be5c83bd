/** The domain services the CLI needs, wired by hand: the CLI is a small composition root. */
import type { Config } from '../../kernel/config';
import { OrganizationService } from '../../features/organizations/domain/organization-service';
import { systemClock } from '../../kernel/clock';
import type { Database } from '../../platform/database/database';
import { KnexApiKeyRepository, KnexOrganizationRepository } from '../../features/organizations/storage/organization-repository';
import { ListingsStore } from '../host/listings-store';

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
