/**
 * The stores of candidate data that existed before the registry, registered here in one
 * place (their features predate it). Every other table of the plugin's migrations is
 * declared free of candidate data with its reason; a new table must appear in one list or
 * the other (test/integration/privacy-registry.test.ts).
 */
import type { Knex } from 'knex';
import { candidateStore, noCandidateData, type CandidateDataRegistration, type CandidateSubject } from '../domain/candidate-data';
import { tableStore } from './table-store';
import { whereJsonMentions, whereJsonMentionsAny } from './json-mentions';

/** Rows of an organization-less JSON table that name both the organization and the candidate. */
const namingBoth = (column: string) => (query: Knex.QueryBuilder, subject: CandidateSubject) =>
  whereJsonMentions(whereJsonMentions(query, column, subject.organizationId), column, subject.profileUserId);

const contactValues = (subject: CandidateSubject) => [...subject.emails, ...subject.phones];

export interface CoreStoreHooks {
  /** Revokes the candidate's provider tokens (RFC 7009) before their authorization rows go. */
  revokeAuthorizations?: (subject: CandidateSubject) => Promise<void>;
}

export function coreCandidateStores(db: Knex, hooks: CoreStoreHooks = {}): CandidateDataRegistration[] {
  return [
    candidateStore(
      tableStore(db, {
        name: 'profile_snapshots',
        description: 'The last imported profile: name, headline, skills, credentials, experience and work history',
        table: 'hi_profile_snapshots',
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'authorizations',
        description: "The candidate's OAuth grant to the organization (tokens are exported as their expiry only)",
        table: 'hi_candidate_authorizations',
        omit: ['access_token_ciphertext', 'refresh_token_ciphertext'],
        beforeErase: hooks.revokeAuthorizations,
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'consents',
        description: 'What the candidate agreed to share, with whom (organization, listing), when, under which scopes, and when it ended',
        table: 'hi_candidate_consents',
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'applications',
        description: 'Submitted applications: cover letter, answers, the imported profile they carried and the contact email and phone given',
        table: 'hi_profile_applications',
        // The candidate's applications, and those given with an email the host knows them by (stored lower-cased).
        where: (q, s) =>
          q.where({ organization_id: s.organizationId }).andWhere((w) =>
            w.where({ profile_user_id: s.profileUserId }).orWhereIn(
              'contact_email',
              s.emails.map((e) => e.trim().toLowerCase()),
            ),
          ),
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'events',
        description: 'Events whose payload names the candidate (application.submitted and others); erasure redacts the payload',
        table: 'hi_events',
        // candidate.erased itself is left whole: receivers need its id to erase their copies.
        where: (q, s) => whereJsonMentions(q.where({ organization_id: s.organizationId }).whereNot({ type: 'candidate.erased' }), 'data', s.profileUserId),
        anonymize: () => ({ data: JSON.stringify({ redacted: 'candidate_erased' }) }),
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'interview_reminders',
        description: 'Interview reminders the host scheduled for the candidate (matched by the email or phone given)',
        table: 'hi_interview_reminders',
        where: (q, s) => whereJsonMentionsAny(q.where({ organization_id: s.organizationId }), 'details', contactValues(s)),
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'connector_deliveries',
        description: 'Messages sent to the candidate through connectors (matched by the email or phone given)',
        table: 'hi_connector_deliveries',
        where: (q, s) => whereJsonMentionsAny(q.where({ organization_id: s.organizationId }), 'request', contactValues(s)),
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'outbox',
        description: 'Jobs and events waiting in (or recently relayed by) the outbox whose payload names the candidate',
        table: 'hi_outbox',
        where: namingBoth('data'),
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'connect_sessions',
        description: 'Connect-flow browser sessions (minutes long) naming the candidate',
        table: 'hi_oauth_sessions',
        where: namingBoth('data'),
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'connect_results',
        description: 'Single-use results of the connect flow (minutes long) naming the candidate',
        table: 'hi_connect_results',
        where: namingBoth('result'),
        omit: ['code_hash', 'client_state_hash'],
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'idempotent_responses',
        description: "Stored answers of retried requests (an application's answer) naming the candidate",
        table: 'hi_idempotency_keys',
        where: (q, s) => whereJsonMentions(q.where({ scope: `org:${s.organizationId}` }), 'response_body', s.profileUserId),
        omit: ['request_hash', 'owner'],
      }),
    ),
    candidateStore(
      tableStore(db, {
        name: 'sandbox_authorization_codes',
        description: "The sandbox provider's unused authorization codes for the candidate (test mode, minutes long)",
        table: 'hi_sandbox_authorization_codes',
        where: (q, s) => q.where({ user_id: s.profileUserId }),
        omit: ['code_hash', 'code_challenge'],
      }),
    ),
    ...CANDIDATE_FREE_TABLES.map(([table, reason]) => noCandidateData(table, reason)),
  ];
}

const CANDIDATE_FREE_TABLES: [string, string][] = [
  ['hi_knex_migrations', "knex's record of applied migrations"],
  ['hi_knex_migrations_lock', "knex's migration lock row"],
  ['hi_organizations', 'Organizations: their names and host ids'],
  ['hi_api_keys', "Organizations' API keys (prefix and hash)"],
  ['hi_profile_apply_settings', "Organizations' widget settings: origins, return URLs, button"],
  ['hi_catalog_groups', 'The action catalog'],
  ['hi_catalog_actions', 'The action catalog'],
  ['hi_catalog_versions', 'The action catalog'],
  ['hi_packages', 'Packages of actions and their prices'],
  ['hi_package_actions', 'Packages of actions and their prices'],
  ['hi_subscriptions', "Organizations' package subscriptions"],
  ['hi_licenses', "Organizations' action licenses"],
  ['hi_sandbox_provisionings', "The sandbox provisioner's record of licenses it set up"],
  ['hi_sandbox_provisioning_faults', 'Failure plans rehearsing a failing provisioner (test mode)'],
  ['hi_sandbox_consent_tickets', 'Used consent-form ticket ids and their expiry, nothing about who used them'],
  ['hi_event_sequences', "Each organization's last event number"],
  ['hi_webhook_endpoints', "Organizations' webhook URLs and encrypted secrets"],
  ['hi_webhook_deliveries', 'Delivery status per event and endpoint; the payload is the event row (hi_events), redacted by erasure'],
  ['hi_billing_accounts', "Organizations' billing ledgers and standing"],
  ['hi_invoices', "Organizations' invoices: amounts per action and period, no person"],
  ['hi_invoice_numbers', 'The invoice number counter'],
  ['hi_billing_quotes', 'Price quotes for organizations'],
];
