/**
 * A bound on a step that could hang (a close, a shutdown): past it, the test fails saying
 * which step it was waiting for, well before mocha's own timeout would (which names none).
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what} (${ms} ms)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `body`, then `cleanup` however the body ended. The body's failure is the one
 * reported (a cleanup that fails after it is appended to its message, not put in its place).
 */
export async function withCleanup<T>(body: () => Promise<T>, cleanup: () => Promise<void>): Promise<T> {
  let result: T;
  try {
    result = await body();
  } catch (error) {
    await cleanup().catch((cleanupError: Error) => {
      if (error instanceof Error) error.message += `\n(then, cleaning up: ${cleanupError.message})`;
    });
    throw error;
  }
  await cleanup();
  return result;
}
