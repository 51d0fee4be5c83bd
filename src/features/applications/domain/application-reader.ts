import { inject, injectable } from 'tsyringe';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../../listings/domain/listing';
import { notFound } from '../../../kernel/errors';
import type { ProfileApplication } from './application';
import { APPLICATION_REPOSITORY, type ApplicationPage, type ApplicationRepository } from './ports';

/** Reads for an organization; another organization's ids are simply not found. */
@injectable()
export class ApplicationReader {
  constructor(
    @inject(APPLICATION_REPOSITORY) private readonly applications: ApplicationRepository,
    @inject(LISTINGS_DIRECTORY) private readonly listings: ListingsDirectory,
  ) {}

  async get(organizationId: string, applicationId: string): Promise<ProfileApplication> {
    const application = await this.applications.find(organizationId, applicationId);
    if (!application) throw notFound('application', applicationId);
    return application;
  }

  async listForListing(organizationId: string, listingId: string, options: { limit: number; startingAfter?: string }): Promise<ApplicationPage> {
    const listing = await this.listings.get(listingId);
    if (!listing || listing.organizationId !== organizationId) throw notFound('listing', listingId);
    if (options.startingAfter) {
      const cursor = await this.applications.find(organizationId, options.startingAfter);
      if (!cursor || cursor.listingId !== listingId) throw notFound('application', options.startingAfter);
    }
    return this.applications.list(organizationId, listingId, options);
  }
}
