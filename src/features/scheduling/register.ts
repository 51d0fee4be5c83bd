/**
 * Scheduling: bookings candidates make through their signed scheduling links (the booking
 * domain writes the interviewers' CalDAV calendars). Registers the bookings store and the
 * link-signing key; the request API and the page are not built yet (docs/scheduling.md).
 */
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { deriveKey } from '../../platform/security/key-derivation';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { BOOKING_REPOSITORY, SCHEDULING_LINK_KEY } from './domain/tokens';
import { bookingCandidateStore } from './storage/booking-candidate-store';
import { KnexBookingRepository } from './storage/knex-booking-repository';

export const schedulingModule: PluginModule = {
  name: 'scheduling',
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    registerCandidateData(container, candidateStore(bookingCandidateStore(db)));
    container.register(SCHEDULING_LINK_KEY, { useValue: deriveKey(config.secretKey, 'scheduling-links') });
    container.register(BOOKING_REPOSITORY, { useValue: new KnexBookingRepository(db) });
  },
};
