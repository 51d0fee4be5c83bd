/** The questions a listing may ask, validated the same way wherever listings are written (API, CLI). */
import { z } from 'zod';

export const questionSchema = z
  .object({
    key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'lower snake case, up to 64 characters'),
    label: z.string().min(1).max(500),
    type: z.enum(['number', 'boolean', 'text', 'select']),
    required: z.boolean().default(false),
    options: z.array(z.string().min(1).max(200)).min(1).max(100).optional(),
  })
  .strict()
  .refine((q) => (q.type === 'select') === (q.options !== undefined), {
    message: 'options are required for select questions and only for them',
    path: ['options'],
  });

export const questionsSchema = z
  .array(questionSchema)
  .max(50)
  .refine((qs) => new Set(qs.map((q) => q.key)).size === qs.length, { message: 'question keys must be unique' });
