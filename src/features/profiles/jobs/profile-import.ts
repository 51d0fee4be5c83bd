/**
 * Queue `profile-import`: imports a candidate's profile after the connect callback.
 *
 * Idempotent: the job id is derived from the authorization and its time (one job per
 * authorization event, however often the outbox relays it), and the import upserts the
 * one snapshot of (organization, candidate), so running it twice stores the same thing.
 * Provider outages (5xx, timeouts) are DomainError 'upstream' and retry with backoff; a
 * revoked authorization is final.
 */
import { inject, injectable } from 'tsyringe';
import { UnrecoverableJobError, type JobContext, type JobProcessor } from '../../../kernel/job-queue';
import { PROFILE_IMPORT_QUEUE, type ProfileImportJob } from '../domain/profile-import';
import { ProfileImporter } from '../domain/profile-importer';
import { hasPrefix } from '../../../kernel/ids';

@injectable()
export class ProfileImportProcessor implements JobProcessor<ProfileImportJob> {
  readonly queue = PROFILE_IMPORT_QUEUE;

  constructor(@inject(ProfileImporter) private readonly importer: ProfileImporter) {}

  async process(job: JobContext<ProfileImportJob>): Promise<{ skills: number; credentials: number }> {
    const { organization_id: organizationId, profile_user_id: profileUserId } = job.data;
    if (!hasPrefix(organizationId, 'org') || !hasPrefix(profileUserId, 'usr'))
      throw new UnrecoverableJobError('profile-import job without organization or candidate');
    const snapshot = await this.importer.import(organizationId, profileUserId);
    return { skills: snapshot.skills.length, credentials: snapshot.credentials.length };
  }
}
