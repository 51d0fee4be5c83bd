/** The profile-import job's name, queue and deterministic id, shared by producer and processor. */
import type { OutboxMessage } from '../../../kernel/outbox';
import type { CandidateAuthorization } from './candidate-authorization';

export const PROFILE_IMPORT_QUEUE = 'profile-import';

export interface ProfileImportJob {
  organization_id: string;
  profile_user_id: string;
  authorization_id: string;
}

/** One import per authorization event: a re-authorization imports again, a relay retry does not. */
export function profileImportMessage(authorization: CandidateAuthorization): OutboxMessage {
  const data: ProfileImportJob = {
    organization_id: authorization.organizationId,
    profile_user_id: authorization.profileUserId,
    authorization_id: authorization.id,
  };
  return { queue: PROFILE_IMPORT_QUEUE, name: 'import', data, jobId: `import-${authorization.id}-${authorization.authorizedAt.getTime()}` };
}
