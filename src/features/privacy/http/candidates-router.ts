/**
 * Mounted at /v1/candidates: a candidate's data rights, as the organization answers them —
 * exports (GDPR 15/20) with a signed download link, erasure (GDPR 17) and legal holds.
 */
import type { CandidateSubject } from '../domain/candidate-data';
import type { CandidateDataRegistry } from '../domain/candidate-data-registry';
import type { ConsentRecord, ConsentRepository } from '../domain/consent';
import type { CandidateErasureService } from '../domain/candidate-erasure-service';
import type { CandidateExportService } from '../domain/candidate-export-service';
import type { LegalHoldService } from '../domain/legal-hold-service';
import type { CandidateHire, CandidateHireService } from '../domain/candidate-hires';
import type { PrivacyKeys } from '../domain/privacy-keys';
import type { CandidateErasure, CandidateExport, LegalHold } from '../domain/privacy-requests';
import { notFound } from '../../../kernel/errors';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { exportHtml } from './export-html';
import {
  candidateHireSchema,
  consentListSchema,
  dataStoresSchema,
  erasureSchema,
  exportDocumentSchema,
  exportSchema,
  legalHoldListSchema,
  legalHoldSchema,
  profileUserId,
  subjectBody,
} from './privacy-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export interface CandidatesRouterServices {
  exports: CandidateExportService;
  erasures: CandidateErasureService;
  holds: LegalHoldService;
  hires: CandidateHireService;
  keys: PrivacyKeys;
  registry: () => CandidateDataRegistry;
  consents: ConsentRepository;
  baseUrl: string;
}

const candidateParams = z.object({ profile_user_id: profileUserId });

const hireView = (hire: CandidateHire): z.output<typeof candidateHireSchema> => ({
  id: hire.id,
  object: 'candidate_hire',
  profile_user_id: hire.profileUserId,
  application_id: hire.applicationId,
  listing_id: hire.listingId,
  hired_at: hire.hiredAt.toISOString(),
  created_at: hire.createdAt.toISOString(),
});
const exportParams = candidateParams.extend({ export_id: z.string().max(100) });
const erasureParams = candidateParams.extend({ erasure_id: z.string().max(100) });
const holdParams = candidateParams.extend({ hold_id: z.string().max(100) });

const subject = (principal: Principal, id: string, body: z.output<typeof subjectBody>): CandidateSubject => ({
  organizationId: orgId(principal),
  profileUserId: id,
  emails: [...new Set(body.emails.map((e) => e.toLowerCase()))],
  phones: [...new Set(body.phones)],
});

export function candidateRoutes(s: CandidatesRouterServices): RouteDefinition<any, any, any>[] {
  const exportView = (record: CandidateExport): z.output<typeof exportSchema> => {
    const link = s.exports.downloadLink(record, s.baseUrl);
    return {
      id: record.id,
      object: 'candidate_export',
      profile_user_id: record.subject.profileUserId,
      status: record.status,
      failure_reason: record.failureReason,
      stores_covered: record.document?.completeness.stores_covered ?? null,
      record_count: record.document?.completeness.record_count ?? null,
      download_url: link?.url ?? null,
      download_url_expires_at: link?.expiresAt.toISOString() ?? null,
      created_at: record.createdAt.toISOString(),
      completed_at: record.completedAt?.toISOString() ?? null,
      expires_at: record.expiresAt.toISOString(),
    };
  };
  const erasureView = (record: CandidateErasure): z.output<typeof erasureSchema> => ({
    id: record.id,
    object: 'candidate_erasure',
    status: record.status,
    reason: record.reason,
    stores: record.progress,
    last_error: record.lastError,
    created_at: record.createdAt.toISOString(),
    completed_at: record.completedAt?.toISOString() ?? null,
  });
  const holdView = (hold: LegalHold): z.output<typeof legalHoldSchema> => ({
    id: hold.id,
    object: 'legal_hold',
    profile_user_id: hold.profileUserId,
    reason: hold.reason,
    active: hold.releasedAt === null,
    created_at: hold.createdAt.toISOString(),
    released_at: hold.releasedAt?.toISOString() ?? null,
  });

  const consentView = (c: ConsentRecord) => ({
    id: c.id,
    object: 'consent' as const,
    profile_user_id: c.profileUserId,
    organization_name: c.organizationName,
    listing_id: c.listingId,
    listing_title: c.listingTitle,
    scopes: [...c.scopes],
    statement: c.statement,
    granted_at: c.grantedAt.toISOString(),
    revoked_at: c.revokedAt?.toISOString() ?? null,
    revoked_reason: c.revokedReason as 'revoked_at_provider' | 'superseded' | null,
  });

  return [
    defineRoute({
      method: 'get',
      path: '/:profile_user_id/consents',
      operationId: 'listCandidateConsents',
      summary:
        "The candidate's consent records with the organization, newest first: what they agreed to share, for which listing, when, under which scopes, and whether it ended (empty for a candidate the organization does not know)",
      tags: ['privacy'],
      auth: ['organization'],
      params: candidateParams,
      response: consentListSchema,
      handler: async ({ principal, params }) => ({
        object: 'list' as const,
        data: (await s.consents.list(orgId(principal), params.profile_user_id)).map(consentView),
        has_more: false,
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/data_stores',
      operationId: 'listCandidateDataStores',
      summary:
        'What the plugin stores about candidates, and where: every registered store (export and erasure cover each) and every table declared free of candidate data',
      tags: ['privacy'],
      auth: ['organization', 'operator'],
      response: dataStoresSchema,
      handler: async () => {
        const registry = s.registry();
        return {
          object: 'candidate_data_registry' as const,
          stores: registry.stores.map((store) => ({ name: store.name, description: store.description, tables: [...store.tables] })),
          tables_without_candidate_data: registry.freeTables.map((t) => ({ ...t })),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:profile_user_id/exports',
      operationId: 'createCandidateExport',
      summary:
        'Export everything the organization holds about a candidate (GDPR Art. 15/20), built by a job: poll the export until it has a download_url. 404 when the organization holds nothing about the candidate',
      tags: ['privacy'],
      auth: ['organization'],
      params: candidateParams,
      body: subjectBody,
      status: 202,
      response: exportSchema,
      idempotent: true,
      handler: async ({ principal, params, body }) => exportView(await s.exports.request(subject(principal, params.profile_user_id, body))),
    }),
    defineRoute({
      method: 'get',
      path: '/:profile_user_id/exports/:export_id',
      operationId: 'getCandidateExport',
      summary: 'One export: its status, completeness and (once succeeded) a fresh signed download link',
      tags: ['privacy'],
      auth: ['organization'],
      params: exportParams,
      response: exportSchema,
      handler: async ({ principal, params }) => {
        const record = await s.exports.get(orgId(principal), params.export_id);
        if (record.subject.profileUserId !== params.profile_user_id) throw notFound('export', params.export_id);
        return exportView(record);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:profile_user_id/exports/:export_id/download',
      operationId: 'downloadCandidateExport',
      summary: 'The export document behind a signed link (no API key): JSON, or the readable HTML view with format=html. 404 once the link expired',
      tags: ['privacy'],
      auth: [],
      params: exportParams,
      query: z.object({ expires: z.coerce.number().int(), signature: z.string().max(100), format: z.enum(['json', 'html']).default('json') }).strict(),
      response: exportDocumentSchema,
      produces: ['application/json', 'text/html'],
      handler: async ({ params, query, res }) => {
        const record = await s.exports.download(params.export_id, query.expires, query.signature);
        if (record.subject.profileUserId !== params.profile_user_id || !record.document) throw notFound('export', params.export_id);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Referrer-Policy', 'no-referrer');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        if (query.format === 'html') {
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
          res.status(200).send(exportHtml(record.document));
          return undefined;
        }
        res.setHeader('Content-Disposition', `attachment; filename="${record.id}.json"`);
        return record.document;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:profile_user_id/erasure',
      operationId: 'createCandidateErasure',
      summary:
        'Erase everything the organization holds about a candidate (GDPR Art. 17) and revoke their provider tokens, as a resumable job; candidate.erased follows. Joins an erasure already running. 409 legal_hold',
      tags: ['privacy'],
      auth: ['organization'],
      params: candidateParams,
      body: subjectBody,
      status: 202,
      response: erasureSchema,
      errors: [409],
      handler: async ({ principal, params, body }) => {
        const { erasure, joined } = await s.erasures.request(subject(principal, params.profile_user_id, body));
        return reply(joined ? 200 : 202, erasureView(erasure));
      },
      alsoAnswers: [200],
    }),
    defineRoute({
      method: 'get',
      path: '/:profile_user_id/erasures/:erasure_id',
      operationId: 'getCandidateErasure',
      summary: 'One erasure: its progress per store; once succeeded the record keeps no data of the candidate (only a keyed digest of the id)',
      tags: ['privacy'],
      auth: ['organization'],
      params: erasureParams,
      response: erasureSchema,
      handler: async ({ principal, params }) => {
        const record = await s.erasures.get(orgId(principal), params.erasure_id);
        if (record.subjectDigest !== s.keys.subjectDigest(orgId(principal), params.profile_user_id)) throw notFound('erasure', params.erasure_id);
        return erasureView(record);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:profile_user_id/legal_holds',
      operationId: 'createLegalHold',
      summary: "Place a legal hold: the candidate's data is kept from erasure and retention until the hold is released",
      tags: ['privacy'],
      auth: ['organization'],
      params: candidateParams,
      body: z.object({ reason: z.string().trim().min(1).max(1000) }).strict(),
      status: 201,
      response: legalHoldSchema,
      handler: async ({ principal, params, body }) => holdView(await s.holds.place(orgId(principal), params.profile_user_id, body.reason)),
    }),
    defineRoute({
      method: 'get',
      path: '/:profile_user_id/legal_holds',
      operationId: 'listLegalHolds',
      summary: 'The legal holds placed on a candidate, newest first (active and released)',
      tags: ['privacy'],
      auth: ['organization'],
      params: candidateParams,
      response: legalHoldListSchema,
      handler: async ({ principal, params }) => ({
        object: 'list' as const,
        data: (await s.holds.list(orgId(principal), params.profile_user_id)).map(holdView),
        has_more: false,
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/:profile_user_id/legal_holds/:hold_id/release',
      operationId: 'releaseLegalHold',
      summary: 'Release a legal hold (releasing it again is harmless)',
      tags: ['privacy'],
      auth: ['organization'],
      params: holdParams,
      response: legalHoldSchema,
      handler: async ({ principal, params }) => holdView(await s.holds.release(orgId(principal), params.profile_user_id, params.hold_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/:profile_user_id/hires',
      operationId: 'createCandidateHire',
      summary:
        "Report that one of the candidate's applications led to a hire: the applications retention rule then keeps the candidate (recording it again answers the first record)",
      tags: ['privacy'],
      auth: ['organization'],
      params: candidateParams,
      body: z
        .object({
          application_id: z.string().min(1).max(100),
          hired_at: z.iso.datetime({ offset: true }).optional().meta({ description: 'When the hire was made (default: now)' }),
        })
        .strict(),
      status: 201,
      response: candidateHireSchema,
      handler: async ({ principal, params, body }) =>
        hireView(await s.hires.record(orgId(principal), params.profile_user_id, body.application_id, body.hired_at ? new Date(body.hired_at) : undefined)),
    }),
  ];
}
