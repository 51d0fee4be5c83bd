import { z } from 'zod';
import { isoDateTime, listOf } from '../../../platform/http/common-schemas';

export const eventSchema = z
  .object({
    id: z.string().meta({ example: 'evt_nyfYttmSpM8mxveqmwoR' }),
    object: z.literal('event'),
    type: z.string().meta({ example: 'application.submitted' }),
    sequence: z.number().int().meta({ description: 'Increases with every event of the organization, in commit order' }),
    created_at: isoDateTime,
    data: z.record(z.string(), z.unknown()).meta({ description: 'The payload of the event type (docs/api.md, Event types)' }),
  })
  .meta({ id: 'Event' });

export const eventListSchema = listOf(eventSchema);
