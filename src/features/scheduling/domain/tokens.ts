/** Container tokens of the scheduling feature. */
export const BOOKING_REPOSITORY = Symbol('BookingRepository');
/** The HMAC key of candidates' scheduling links (HKDF of SECRET_KEY, purpose `scheduling-links`). */
export const SCHEDULING_LINK_KEY = Symbol('SchedulingLinkKey');
