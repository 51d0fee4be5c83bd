/** A command line the CLI refuses (a missing or malformed option): exits with the usage code. */
export class UsageError extends Error {}
