/** Hook payload schemas (snake_case, as hosts send them). Unknown fields are ignored. */
import { z } from 'zod';

/** Host ids are opaque, but they become parts of job ids and idempotency keys: keep them tame. */
export const hostId = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'expected 1-128 letters, digits, _ . or -');
const isoInstant = z.iso.datetime({ offset: true });
const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'expected an E.164 number such as +14155550123');

export const person = z.object({
  name: z.string().min(1).max(200),
  email: z.email().max(320).optional(),
  phone: e164.optional(),
  /** BCP 47 tag of the language messages to this person are written in (en, es, fr, de, pt, ar; others fall back to English). */
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'expected a BCP 47 language tag such as en or pt-BR')
    .max(35)
    .optional(),
});

export const interviewScheduled = z.object({
  interview_id: hostId,
  candidate: person,
  starts_at: isoInstant,
  duration_minutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  title: z.string().min(1).max(200).default('Interview'),
  timezone: z.string().max(64).optional(),
  location: z.string().max(500).optional(),
  interviewers: z.array(person).max(50).default([]),
});
export type InterviewScheduled = z.infer<typeof interviewScheduled>;

export const interviewRescheduled = z.object({
  interview_id: hostId,
  starts_at: isoInstant,
});

export const interviewCanceled = z.object({
  interview_id: hostId,
});

export const offerCreated = z.object({
  offer_id: hostId,
  candidate: person.extend({ email: z.email().max(320) }),
  title: z.string().min(1).max(200).default('Offer letter'),
  document_url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
});

export const candidateHired = z.object({
  candidate_id: hostId,
  candidate: person.extend({ email: z.email().max(320) }),
  job_title: z.string().max(200).optional(),
  start_date: z.iso.date().optional(),
  department: z.string().max(200).optional(),
});

/** The host reports a change to someone already hired (a new title, department, name or email). */
export const employeeUpdated = candidateHired;

export const employeeTerminated = z.object({
  candidate_id: hostId,
  terminated_on: z.iso.date().optional(),
});

/** A school's volunteer whose clearances are complete (the host's volunteer listing flow decides that). */
export const volunteerCleared = z.object({
  candidate_id: hostId,
  candidate: person.extend({ email: z.email().max(320) }),
  role: z.string().max(200).optional(),
  school: z.string().max(200).optional(),
});
