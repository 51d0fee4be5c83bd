/** Mounted at /v1/credential-trust: the organization's trust lists, per credential type. */
import { notFound } from '../../../kernel/errors';
import type { Principal } from '../../../platform/http/principal';
import { listOf, isoDateTime } from '../../../platform/http/common-schemas';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import { credentialTypeParam, trustedIssuersSchema, type TrustedIssuersStore, type TrustList } from '../domain/trusted-issuers';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

const trustListSchema = z
  .object({
    object: z.literal('credential_trust'),
    credential_type: z.string(),
    issuers: z.array(z.string()),
    updated_at: isoDateTime,
  })
  .meta({
    id: 'CredentialTrustList',
    example: { object: 'credential_trust', credential_type: 'License', issuers: ['did:web:rn.board.example'], updated_at: '2026-11-26T09:00:00.000Z' },
  });
const deletedSchema = z.object({ object: z.literal('credential_trust'), credential_type: z.string(), deleted: z.literal(true) });
const params = z.object({ credential_type: credentialTypeParam });
const putBody = z.object({ issuers: trustedIssuersSchema }).strict();

const view = (list: TrustList): z.output<typeof trustListSchema> => ({
  object: 'credential_trust',
  credential_type: list.credentialType,
  issuers: list.issuers,
  updated_at: list.updatedAt.toISOString(),
});

export function trustListRoutes(store: TrustedIssuersStore, now: () => Date): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listCredentialTrustLists',
      summary: "The organization's trust lists: per credential type, the issuers whose credentials count (requirements naming no issuers use them)",
      tags: ['credentials'],
      auth: ['organization'],
      response: listOf(trustListSchema),
      handler: async ({ principal }) => {
        const data = (await store.list(orgId(principal))).map(view);
        return { object: 'list' as const, data, has_more: false, url: '/v1/credential-trust' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:credential_type',
      operationId: 'getCredentialTrustList',
      summary: 'The trust list of one credential type (compared without case)',
      tags: ['credentials'],
      auth: ['organization'],
      params,
      response: trustListSchema,
      handler: async ({ principal, params: p }) => {
        const list = await store.find(orgId(principal), p.credential_type);
        if (!list) throw notFound('trust list', p.credential_type);
        return view(list);
      },
    }),
    defineRoute({
      method: 'put',
      path: '/:credential_type',
      operationId: 'putCredentialTrustList',
      summary: 'Set the issuers (DIDs) trusted for a credential type (replaces the list)',
      tags: ['credentials'],
      auth: ['organization'],
      params,
      body: putBody,
      response: trustListSchema,
      handler: async ({ principal, params: p, body }) => view(await store.put(orgId(principal), p.credential_type, body.issuers, now())),
    }),
    defineRoute({
      method: 'delete',
      path: '/:credential_type',
      operationId: 'deleteCredentialTrustList',
      summary: 'Remove the trust list of a credential type',
      tags: ['credentials'],
      auth: ['organization'],
      params,
      response: deletedSchema,
      handler: async ({ principal, params: p }) => {
        if (!(await store.delete(orgId(principal), p.credential_type))) throw notFound('trust list', p.credential_type);
        return { object: 'credential_trust' as const, credential_type: p.credential_type, deleted: true as const };
      },
    }),
  ];
}
