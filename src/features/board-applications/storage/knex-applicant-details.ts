/** The applicant details of board applications (hi_board_applications), for the pipeline delivery. */
import type { ApplicantDetails, ApplicantDetailsReader } from '../../applications/domain/applicant-details';
import type { Database } from '../../../platform/database/database';

export class KnexApplicantDetails implements ApplicantDetailsReader {
  constructor(private readonly db: Database) {}

  async find(applicationId: string): Promise<ApplicantDetails | undefined> {
    const row = await this.db('hi_board_applications').where({ application_id: applicationId }).first();
    if (!row) return undefined;
    const file = row.resume_file
      ? { fileName: row.resume_file_name as string, contentType: row.resume_content_type as string, data: Buffer.from(row.resume_file) }
      : null;
    return {
      email: row.email,
      phone: row.phone ?? null,
      resume: row.resume_text !== null || file ? { text: row.resume_text ?? null, file } : null,
    };
  }
}
