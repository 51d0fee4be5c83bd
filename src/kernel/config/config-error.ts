/** A setting that is missing or wrong, named by its variable (or option) so the operator knows what to fix. */
export class ConfigError extends Error {
  constructor(
    readonly env: string,
    message: string,
  ) {
    super(`${env}: ${message}`);
    this.name = 'ConfigError';
  }
}
