/**
 * Job payloads in the queue (Redis, or memory in embedded mode) that name the candidate,
 * in any state: the queue keeps finished jobs for a day and failed ones for a week, and a
 * profile import's payload names the candidate. Erasure removes them; a job running right
 * now fails the step, which the erasure retries once it has finished.
 */
import type { JobQueue } from '../../../kernel/job-queue';
import { upstream } from '../../../kernel/errors';
import type { CandidateDataStore, CandidateSubject } from './candidate-data';

/** The payload names both the organization and the candidate (as whole JSON strings). */
function namesSubject(subject: CandidateSubject): (data: unknown) => boolean {
  const organization = JSON.stringify(subject.organizationId);
  const candidate = JSON.stringify(subject.profileUserId);
  return (data) => {
    const text = JSON.stringify(data) ?? '';
    return text.includes(organization) && text.includes(candidate);
  };
}

export function queuedJobsStore(queue: () => JobQueue, queues: () => readonly string[]): CandidateDataStore {
  return {
    name: 'queued_jobs',
    description: 'Job payloads in the queue (waiting, running or kept after they finished) naming the candidate',
    tables: [],
    async export(subject) {
      const records: Record<string, unknown>[] = [];
      for (const name of queues()) {
        for (const job of await queue().findJobs(name, namesSubject(subject)))
          records.push({ queue: name, id: job.id, name: job.name, state: job.state, data: job.data });
      }
      return records;
    },
    async erase(subject) {
      let erased = 0;
      for (const name of queues()) {
        for (const job of await queue().findJobs(name, namesSubject(subject))) {
          if (!(await queue().forget(name, job.id)))
            throw upstream('job_running', `Job ${job.id} of ${name} naming the candidate is running; the erasure retries`);
          erased += 1;
        }
      }
      return { erased };
    },
  };
}
