/** The logging port: structured, leveled; the first argument carries fields, never secrets. */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  child(bindings: object): Logger;
}

export const LOGGER = Symbol('Logger');
