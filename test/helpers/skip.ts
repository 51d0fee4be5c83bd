/**
 * Skipping with a reason: mocha lists a skipped test as pending with its title only, so the
 * reason goes into the title of every test it skips (the test itself, or, from a hook, every
 * test of the suite and its sub-suites). Tests never call `this.skip()` bare (a test checks).
 */
const MARK = ' (skipped: ';

function label(test: Mocha.Test, reason: string): void {
  if (!test.title.includes(MARK)) test.title += `${MARK}${reason})`;
}

function labelSuite(suite: Mocha.Suite, reason: string): void {
  suite.tests.forEach((test) => label(test, reason));
  suite.suites.forEach((child) => labelSuite(child, reason));
}

export function skipBecause(context: Mocha.Context, reason: string): never {
  const runnable = context.test;
  if (runnable && (runnable as { type?: string }).type === 'hook') {
    // beforeEach: the test about to run; before (whose currentTest is only the suite's first): the whole suite.
    if (/^"before each" hook/.test(runnable.title) && context.currentTest) label(context.currentTest, reason);
    else if (runnable.parent) labelSuite(runnable.parent, reason);
  } else if (runnable) {
    label(runnable as Mocha.Test, reason);
  }
  return context.skip();
}
