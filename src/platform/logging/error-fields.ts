/** An error as log fields: type, message, stack, and its `cause` chain (bounded), so a log line says where and why. */
export interface ErrorFields {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  cause?: ErrorFields | string;
}

export function errorFields(error: unknown, depth = 0): ErrorFields {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const fields: ErrorFields = { type: error.name, message: error.message, stack: error.stack };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') fields.code = code;
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined) fields.cause = depth < 5 ? errorFields(cause, depth + 1) : String(cause);
  return fields;
}
