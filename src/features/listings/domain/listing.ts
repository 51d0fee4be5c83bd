import type { Disposer } from '../../../kernel/disposer';

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

/** What a host tells the plugin about caching its listings (see ListingsDirectory.caching). */
export interface ListingsCaching {
  /** The longest the plugin may keep a listing's answer in memory (milliseconds). */
  maxAgeMs: number;
  /**
   * Calls the listener with a listing's id after each change of it (status, questions,
   * owner, removal) made in this process; returns a disposer. The plugin drops the listing
   * in this process at once and in its other processes within a second.
   */
  onChange(listener: (listingId: string) => void): Disposer;
}

export interface ListingsDirectory {
  get(listingId: string): Promise<Listing | undefined>;
  /**
   * Whether and for how long `get`'s answers may be cached. Absent: never cached, every
   * lookup asks the host. A host that sets it must report every change through `onChange`.
   */
  caching?: ListingsCaching;
}

export const LISTINGS_DIRECTORY = Symbol('ListingsDirectory');
