/** The CalDAV connector's settings and credentials. */
import { IANAZone } from 'luxon';
import { z } from 'zod';

export const caldavSettings = z
  .object({
    server_url: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .meta({
        description: 'The CalDAV server (discovery starts here: /.well-known/caldav, the principal, the calendar home)',
        example: 'https://dav.example.com/',
      }),
    calendar_url: z
      .url({ protocol: /^https?$/ })
      .max(1000)
      .optional()
      .meta({ description: 'The calendar to read and write; default the first calendar that holds events' }),
    timezone: z
      .string()
      .max(100)
      .refine((zone) => IANAZone.isValidZone(zone), 'not an IANA time zone')
      .optional()
      .meta({
        description: "IANA zone whose days the calendar's all-day events are, when the calendar declares none (CALDAV:calendar-timezone); default UTC",
        example: 'Europe/Berlin',
      }),
    busy_source: z.enum(['events', 'free_busy_query']).default('events').meta({
      description:
        "events: busy times computed from the calendar's events (calendar-query, recurrences expanded); free_busy_query: the server's CALDAV:free-busy-query",
    }),
  })
  .strict();

export const caldavCredentials = z
  .object({ username: z.string().min(1).max(320), password: z.string().min(1).max(1024) })
  .strict()
  .or(z.object({ bearer_token: z.string().min(1).max(4096) }).strict())
  .or(z.object({}).strict().meta({ description: 'No authentication (a server on the local network)' }));

export type CaldavSettings = z.output<typeof caldavSettings>;
export type CaldavCredentials = z.output<typeof caldavCredentials>;
