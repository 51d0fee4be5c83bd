/** Injection tokens of the privacy feature's own values. */
export const CANDIDATE_DATA_REGISTRY = Symbol('CandidateDataRegistry');
/** A PrivacyKeys instance (signing export links, digesting erased subjects). */
export const PRIVACY_KEYS = Symbol('PrivacyKeys');
