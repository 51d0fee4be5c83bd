/**
 * The language a credential's holder reads, when something stores one: an employee's
 * `language` (the employees feature answers for its own holders). Candidates' held
 * credentials carry no language, so their reminders read English.
 */
import type { HeldCredential } from './held-credential';

export const HOLDER_LANGUAGES = Symbol('HolderLanguages');

export interface HolderLanguages {
  /** The holder's BCP 47 tag, or undefined when none is stored. */
  languageOf(credential: HeldCredential): Promise<string | undefined>;
}
