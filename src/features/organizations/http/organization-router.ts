import type { OrganizationService } from '../domain/organization-service';
import type { ApiKeyRecord } from '../domain/organization';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { Principal } from '../../../platform/http/principal';
import { apiKeySummarySchema, createdOrganizationSchema, issuedApiKeySchema, organizationSchema } from './organization-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

const keyView = (key: ApiKeyRecord) => ({
  prefix: key.prefix,
  created_at: key.createdAt.toISOString(),
  expires_at: key.expiresAt?.toISOString() ?? null,
  revoked_at: key.revokedAt?.toISOString() ?? null,
});

export function organizationRoutes(organizations: OrganizationService): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'getOrganization',
      summary: 'The calling organization and its API keys (prefixes only)',
      tags: ['organization'],
      auth: ['organization'],
      response: organizationSchema,
      handler: async ({ principal }): Promise<z.output<typeof organizationSchema>> => {
        const organization = await organizations.get(orgId(principal));
        const keys = await organizations.listKeys(organization.id);
        return {
          id: organization.id,
          object: 'organization',
          name: organization.name,
          created_at: organization.createdAt.toISOString(),
          api_keys: keys.map(keyView),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api_keys/rotate',
      operationId: 'rotateApiKey',
      summary: 'Issue a new API key; the current ones keep working for the grace period',
      tags: ['organization'],
      auth: ['organization'],
      body: z.object({}).strict(),
      status: 201,
      response: issuedApiKeySchema,
      handler: async ({ principal }) => {
        const issued = await organizations.rotateKey(orgId(principal), principal.kind === 'organization' ? (principal.keyPrefix ?? '') : undefined);
        return reply(201, {
          object: 'api_key' as const,
          api_key: issued.apiKey,
          prefix: issued.prefix,
          previous_keys_expire_at: issued.previousKeysExpireAt?.toISOString(),
        } satisfies z.output<typeof issuedApiKeySchema>);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api_keys/:prefix',
      operationId: 'revokeApiKey',
      summary: "Revoke one of the organization's API keys at once (by its prefix); 404 for a prefix it does not own",
      tags: ['organization'],
      auth: ['organization'],
      params: z.object({ prefix: z.string().min(1).max(64) }),
      response: apiKeySummarySchema.extend({ object: z.literal('api_key') }).meta({ id: 'RevokedApiKey' }),
      handler: async ({ principal, params }) => ({ object: 'api_key' as const, ...keyView(await organizations.revokeOwnKey(orgId(principal), params.prefix)) }),
    }),
  ];
}

/** Operator-only tenant provisioning, for ATS operators creating organizations by API. */
export function organizationAdminRoutes(organizations: OrganizationService): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createOrganization',
      summary: 'Create an organization and its first API key (shown once)',
      tags: ['organization'],
      auth: ['operator'],
      idempotent: true,
      body: z
        .object({ name: z.string().trim().min(1).max(200) })
        .strict()
        .meta({ example: { name: 'Acme Hiring' } }),
      status: 201,
      response: createdOrganizationSchema,
      handler: async ({ body }): Promise<z.output<typeof createdOrganizationSchema>> => {
        const { organization, key } = await organizations.create(body.name);
        return {
          id: organization.id,
          object: 'organization',
          name: organization.name,
          created_at: organization.createdAt.toISOString(),
          api_key: key.apiKey,
        };
      },
    }),
  ];
}
