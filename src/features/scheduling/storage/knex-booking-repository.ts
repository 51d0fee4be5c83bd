/**
 * Bookings in PostgreSQL. Between candidates, a claim or move takes a transaction-scoped advisory
 * lock per interviewer calendar (sorted, so two claims never wait on each other in a circle) and
 * refuses when a live booking on any of them overlaps [start, end): of two candidates picking
 * overlapping times at once (11:00 and 11:30 for an hour), one wins, across processes. On PGlite
 * (one connection) the transactions run one after the other, which serves the same. Partial unique
 * indexes stay as the last word: hi_scheduling_bookings_slot (one per calendar and start) and
 * hi_scheduling_bookings_one_per_request within one link (one live booking per request); a move
 * is a conditional UPDATE on the SEQUENCE it replaces.
 */
import type { Knex } from 'knex';
import { conflict } from '../../../kernel/errors';
import { bookingInProgress } from '../domain/bookings';
import { isUniqueViolation, type Database } from '../../../platform/database/database';
import type { BookingClaim, BookingRepository } from '../domain/bookings';
import type { TimeRange } from '../domain/calendar-port';

type Transaction = Knex.Transaction;

const slotTaken = (slot: TimeRange) =>
  conflict('slot_taken', 'This time was just booked by someone else; pick another one.', { start: slot.start.toISOString() });

/**
 * Inside the claim's transaction: waits for every other claim or move on these calendars, then
 * refuses the slot when a live booking (other than the one being moved) overlaps it.
 */
async function lockAndCheck(
  trx: Transaction,
  organizationId: string,
  calendarKeys: readonly string[],
  slot: TimeRange,
  except: { id?: string; requestId?: string },
) {
  for (const key of [...new Set(calendarKeys)].sort())
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`hiring-integrations:scheduling-calendar:${organizationId}:${key}`]);
  const query = trx('hi_scheduling_bookings')
    .where({ organization_id: organizationId, status: 'booked' })
    .whereIn('calendar_key', [...calendarKeys])
    .where('starts_at', '<', slot.end)
    .where('ends_at', '>', slot.start)
    .first('id');
  // The request's own live booking is for the one-per-request index to answer (booking_in_progress).
  if (except.id) query.whereNot('id', except.id);
  if (except.requestId) query.whereNot('request_id', except.requestId);
  if (await query) throw slotTaken(slot);
}

interface BookingRow {
  id: string;
  request_id: string;
  calendar_key: string;
  event_uid: string;
  sequence: number;
  starts_at: Date;
  ends_at: Date;
  candidate_name: string;
  candidate_email: string;
  updated_at: Date;
}

export class KnexBookingRepository implements BookingRepository {
  constructor(private readonly db: Database) {}

  async claim(claim: BookingClaim, now: Date): Promise<void> {
    const rows = claim.calendarKeys.map((calendarKey) => ({
      id: claim.id,
      organization_id: claim.organizationId,
      request_id: claim.requestId,
      calendar_key: calendarKey,
      event_uid: claim.eventUid,
      sequence: 0,
      starts_at: claim.slot.start,
      ends_at: claim.slot.end,
      candidate_name: claim.candidate.name,
      candidate_email: claim.candidate.email.toLowerCase(),
      status: 'booked',
      created_at: now,
      updated_at: now,
    }));
    try {
      await this.db.transaction(async (trx) => {
        await lockAndCheck(trx, claim.organizationId, claim.calendarKeys, claim.slot, { requestId: claim.requestId });
        // One statement: all interviewers' calendars or none.
        await trx('hi_scheduling_bookings').insert(rows);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'hi_scheduling_bookings_slot')) throw slotTaken(claim.slot);
      if (isUniqueViolation(error, 'hi_scheduling_bookings_one_per_request')) throw bookingInProgress();
      throw error;
    }
  }

  async release(organizationId: string, id: string): Promise<void> {
    await this.db('hi_scheduling_bookings').where({ organization_id: organizationId, id }).delete();
  }

  async claimed(organizationId: string, calendarKeys: readonly string[], window: TimeRange) {
    const rows: BookingRow[] = await this.db('hi_scheduling_bookings')
      .where({ organization_id: organizationId, status: 'booked' })
      .whereIn('calendar_key', [...calendarKeys])
      .where('starts_at', '<', window.end)
      .where('ends_at', '>', window.start);
    return rows.map((r) => ({ calendarKey: r.calendar_key, start: new Date(r.starts_at), end: new Date(r.ends_at) }));
  }

  async liveBooking(organizationId: string, requestId: string) {
    const rows: BookingRow[] = await this.db('hi_scheduling_bookings').where({ organization_id: organizationId, request_id: requestId, status: 'booked' });
    const first = rows[0];
    if (!first) return undefined;
    return {
      id: first.id,
      organizationId,
      requestId,
      calendarKeys: rows.map((r) => r.calendar_key),
      eventUid: first.event_uid,
      sequence: first.sequence,
      slot: { start: new Date(first.starts_at), end: new Date(first.ends_at) },
      candidate: { name: first.candidate_name, email: first.candidate_email },
      updatedAt: new Date(first.updated_at),
    };
  }

  async move(organizationId: string, id: string, slot: TimeRange, sequence: number, now: Date): Promise<void> {
    let moved: unknown[];
    try {
      // Only from an older SEQUENCE: of two moves of one booking at once, the second finds it taken.
      moved = await this.db.transaction(async (trx): Promise<unknown[]> => {
        const keys: Array<{ calendar_key: string }> = await trx('hi_scheduling_bookings')
          .where({ organization_id: organizationId, id, status: 'booked' })
          .select('calendar_key');
        if (keys.length === 0) return [];
        await lockAndCheck(
          trx,
          organizationId,
          keys.map((k) => k.calendar_key),
          slot,
          { id },
        );
        return trx('hi_scheduling_bookings')
          .where({ organization_id: organizationId, id, status: 'booked' })
          .where('sequence', '<', sequence)
          .update({ starts_at: slot.start, ends_at: slot.end, sequence, updated_at: now })
          .returning('calendar_key');
      });
    } catch (error) {
      if (isUniqueViolation(error, 'hi_scheduling_bookings_slot')) throw slotTaken(slot);
      throw error;
    }
    if (moved.length === 0) throw bookingInProgress();
  }

  async markCancelled(organizationId: string, id: string, sequence: number, now: Date): Promise<void> {
    await this.db('hi_scheduling_bookings').where({ organization_id: organizationId, id }).update({ status: 'cancelled', sequence, updated_at: now });
  }
}
