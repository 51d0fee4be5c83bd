import { API_KEY_POLICY, OrganizationService } from '../domain/organizations/organization-service';
import { API_KEY_REPOSITORY, ORGANIZATION_REPOSITORY } from '../domain/organizations/ports';
import { OperatorApiKeyVerifier } from '../http/credentials/operator-api-key';
import { OrganizationApiKeyVerifier } from '../http/credentials/organization-api-key';
import { CREDENTIAL_VERIFIERS } from '../http/principal';
import { organizationAdminRoutes, organizationRoutes } from '../http/routers/organization-router';
import { KnexApiKeyRepository, KnexOrganizationRepository } from '../storage/organization-repository';
import type { PluginModule } from './module';

export const organizationsModule: PluginModule = {
  name: 'organizations',
  register(container, { config }) {
    container.registerSingleton(ORGANIZATION_REPOSITORY, KnexOrganizationRepository);
    container.registerSingleton(API_KEY_REPOSITORY, KnexApiKeyRepository);
    container.register(API_KEY_POLICY, { useValue: { rotationGraceSeconds: config.apiKeyRotationGraceSeconds } });
    container.registerSingleton(OrganizationService);
    container.register(CREDENTIAL_VERIFIERS, { useClass: OrganizationApiKeyVerifier });
    container.register(CREDENTIAL_VERIFIERS, { useValue: new OperatorApiKeyVerifier(config.operatorApiKey) });
  },
  routers: [
    {
      name: 'organization',
      create: (container, kit) => kit.build('organization', organizationRoutes(container.resolve(OrganizationService))),
    },
    {
      name: 'organizations',
      create: (container, kit) => kit.build('organizations', organizationAdminRoutes(container.resolve(OrganizationService))),
    },
  ],
};
