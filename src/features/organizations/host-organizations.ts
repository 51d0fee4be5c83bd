/** Organizations from host code (PluginInstance.organizations): the host maps its tenants to organizations. */
import type { DependencyContainer } from 'tsyringe';
import type { Organization } from './domain/organization';
import { OrganizationService } from './domain/organization-service';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from './domain/ports';
import type { HostOrganizations, OrganizationInfo } from '../../host/contract';

function organizationInfo(organization: Organization): OrganizationInfo {
  return { id: organization.id, name: organization.name, externalId: organization.externalId ?? null, createdAt: organization.createdAt };
}

export function hostOrganizations(container: DependencyContainer): HostOrganizations {
  const organizations = container.resolve(OrganizationService);
  const repository = container.resolve<OrganizationRepository>(ORGANIZATION_REPOSITORY);
  return {
    async create(input) {
      const { organization, key } = await organizations.create(input.name, { externalId: input.externalId });
      return { organization: organizationInfo(organization), apiKey: key.apiKey };
    },
    async get(organizationId) {
      const organization = await repository.findById(organizationId);
      return organization ? organizationInfo(organization) : undefined;
    },
    async findByExternalId(externalId) {
      const organization = await organizations.findByExternalId(externalId);
      return organization ? organizationInfo(organization) : undefined;
    },
    async issueKey(organizationId) {
      const issued = await organizations.rotateKey(organizationId);
      return { apiKey: issued.apiKey, previousKeysExpireAt: issued.previousKeysExpireAt! };
    },
    async revokeKey(keyOrPrefix) {
      await organizations.revokeKey(keyOrPrefix);
    },
  };
}
