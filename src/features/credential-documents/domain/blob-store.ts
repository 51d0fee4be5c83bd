/**
 * Where uploaded files live, apart from their metadata: a port so a deployment can put them
 * in object storage. The default adapter is an encrypted local folder. Keys are the plugin's
 * own ids (never a user's file name).
 */
export interface BlobStore {
  put(key: string, content: Buffer): Promise<void>;
  /** undefined when there is no such blob (erased). Throws when it was tampered with. */
  get(key: string): Promise<Buffer | undefined>;
  /** Idempotent: deleting a missing blob is not an error (a resumed erasure runs it again). */
  delete(key: string): Promise<void>;
}

export const BLOB_STORE = Symbol('BlobStore');
