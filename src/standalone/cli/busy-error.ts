/** The command is refused for now, not for its arguments (the embedded server holds DATA_DIR): exits 75, retry later. */
export class BusyError extends Error {}
