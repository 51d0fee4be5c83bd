/**
 * The language a credential's holder reads, when something stores one: an employee's
 * `language` (the employees feature answers for its own holders). A candidate's held
 * credential carries the language of the application it came with (`holder.language`);
 * without one the reminder reads English.
 */
import type { HeldCredential } from './held-credential';

export const HOLDER_LANGUAGES = Symbol('HolderLanguages');

export interface HolderLanguages {
  /** The holder's BCP 47 tag, or undefined when none is stored. */
  languageOf(credential: HeldCredential): Promise<string | undefined>;
}
