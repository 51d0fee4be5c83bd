import { inject, injectable } from 'tsyringe';
import { apiKeyPrefix, looksLikeApiKey } from '../domain/api-key';
import { OrganizationService } from '../domain/organization-service';
import type { CredentialVerifier, Principal } from '../../../platform/http/principal';

@injectable()
export class OrganizationApiKeyVerifier implements CredentialVerifier {
  readonly kind = 'organization' as const;

  constructor(@inject(OrganizationService) private readonly organizations: OrganizationService) {}

  recognizes(token: string): boolean {
    return looksLikeApiKey(token);
  }

  async verify(token: string): Promise<Principal> {
    return { kind: 'organization', organizationId: await this.organizations.authenticate(token), keyPrefix: apiKeyPrefix(token) };
  }
}
