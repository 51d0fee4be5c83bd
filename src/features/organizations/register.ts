import { API_KEY_POLICY, OrganizationService } from './domain/organization-service';
import { API_KEY_REPOSITORY, ORGANIZATION_REPOSITORY } from './domain/ports';
import { OperatorApiKeyVerifier } from '../../platform/http/operator-api-key';
import { OrganizationApiKeyVerifier } from './http/organization-api-key';
import { CREDENTIAL_VERIFIERS } from '../../platform/http/principal';
import { organizationAdminRoutes, organizationRoutes } from './http/organization-router';
import { KnexApiKeyRepository, KnexOrganizationRepository } from './storage/organization-repository';
import type { PluginModule } from '../../platform/composition/plugin-module';

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
