/** A job listing as the host's listings directory describes it. The host owns listings. */
export type QuestionType = 'number' | 'boolean' | 'text' | 'select';

export interface ListingQuestion {
  key: string;
  label: string;
  type: QuestionType;
  required: boolean;
  /** Only for `select`. */
  options?: string[];
}

export interface Listing {
  id: string;
  organizationId: string;
  title: string;
  status: 'open' | 'closed';
  questions: ListingQuestion[];
  /** The ATS's own id of the listing, where the host keeps one. */
  externalId?: string | null;
  description?: string | null;
  location?: string | null;
  createdAt?: Date;
  updatedAt?: Date;
}

export interface ListingsDirectory {
  get(listingId: string): Promise<Listing | undefined>;
}

export const LISTINGS_DIRECTORY = Symbol('ListingsDirectory');
