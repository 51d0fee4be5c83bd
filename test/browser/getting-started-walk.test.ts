/**
 * The newcomer's walk, as docs/getting-started.md writes it: the test reads the page and
 * does what it says. Section 1's command (`npm start`, on a free port with a data folder
 * of its own; the tree is already installed and built, which is what `npm install` does)
 * must print the lines the page shows; each numbered step of section 2 is done in Debian's
 * Chromium (every step must say something the test knows how to do, or the test fails);
 * section 3's CLI commands run as written, their output shaped as the page says, and its
 * curl call answers 200. A changed button label, banner, command or output fails here.
 */
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { launchChromium, skipWithoutChromium } from '../helpers/browser';
import { freePort } from '../helpers/processes';

const DOC = readFileSync(path.join(PACKAGE_ROOT, 'docs', 'getting-started.md'), 'utf8');
const DOC_ORIGIN = 'http://localhost:3000';

/** The text of the section whose heading starts with `title`. */
function section(title: string): string {
  const start = DOC.indexOf(`\n## ${title}`);
  assert.ok(start >= 0, `docs/getting-started.md has a section "${title}"`);
  const end = DOC.indexOf('\n## ', start + 1);
  return DOC.slice(start, end < 0 ? undefined : end);
}

function codeBlocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

/** The numbered steps of a section, one string each (continuation lines joined). */
function steps(text: string): string[] {
  return [...text.matchAll(/^\d+\. ([\s\S]*?)(?=^\d+\. |^\s*$)/gm)].map((m) => m[1]!.replace(/\s+/g, ' ').trim());
}

/** A line of the page's sample output as a pattern: `…` stands for anything, the port is ours. */
function linePattern(line: string, port: number): RegExp {
  const escaped = line
    .trim()
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(escaped.replaceAll('localhost:3000', `localhost:${port}`));
}

interface Server {
  child: ChildProcess;
  output: () => string;
}

describe('browser: the newcomer’s walk in docs/getting-started.md, as written', function () {
  this.timeout(360_000);
  let browser: Browser;
  let context: BrowserContext;
  let port: number;
  let home: string;
  let dataDir: string;
  let server: Server | undefined;
  const env = () => ({ PATH: process.env.PATH, HOME: home, PORT: String(port), DATA_DIR: dataDir });

  /** `npm start` as the page says, in its own process group (stopped by that group's id). */
  async function start(): Promise<Server> {
    const child = spawn('npm', ['start'], { cwd: PACKAGE_ROOT, env: env() as NodeJS.ProcessEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const started = { child, output: () => output };
    const deadline = Date.now() + 240_000;
    while (!/Open http:\/\/localhost:\d+\/demo/.test(output)) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output.slice(-3000)}`);
      if (Date.now() > deadline) throw new Error(`npm start printed no "Open …/demo" line:\n${output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return started;
  }

  /** Ctrl-C: SIGINT to the process group `npm start` leads. */
  async function stop(): Promise<void> {
    if (!server || server.child.exitCode !== null) return;
    const exited = new Promise((resolve) => server!.child.once('exit', resolve));
    process.kill(-server.child.pid!, 'SIGINT');
    const timer = setTimeout(() => process.kill(-server!.child.pid!, 'SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
    // npm has gone; wait until the server it started has released the data folder (its pid file).
    for (let i = 0; i < 300 && existsSync(path.join(dataDir, 'server.pid')); i++) await new Promise((r) => setTimeout(r, 100));
    server = undefined;
  }

  before(async function () {
    skipWithoutChromium(this);
    port = await freePort();
    home = mkdtempSync(path.join(tmpdir(), 'hi-walk-'));
    // Where a clone named hiring-integrations keeps its embedded data.
    dataDir = path.join(home, 'hiring-integrations', '.data');
    mkdirSync(path.dirname(dataDir), { recursive: true });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  });

  after(async () => {
    await stop().catch(() => undefined);
    await context?.close();
    await browser?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('1. runs it: two commands, and the banner the page shows', async () => {
    const [commands] = codeBlocks(section('1. Run it'), 'sh');
    const lines = commands!.trim().split('\n');
    assert.equal(lines.at(-1), 'npm install && npm start', 'the two commands');
    const packageJson = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'));
    assert.ok(packageJson.scripts.start, 'package.json has the start script the page runs');
    server = await start();
    // `npm install` built it (prepare); the start finds the build current and does not build again.
    assert.doesNotMatch(server.output(), /building/, 'npm start after npm install (here: npm test) builds nothing');
    const [banner] = codeBlocks(section('1. Run it'), 'text');
    for (const line of banner!.split('\n').filter((l) => l.trim())) {
      assert.match(server.output(), linePattern(line, port), `npm start prints "${line.trim()}"`);
    }
  });

  it('2. applies on the demo listing, step by step as written, and finds the application on the pipeline page', async () => {
    assert.ok(server, 'the server from step 1 runs');
    const local = (url: string) => url.replace(DOC_ORIGIN, `http://localhost:${port}`);
    const page: Page = await context.newPage();
    let popup: Page | undefined;
    context.on('page', (opened) => (popup = opened));
    const target = (step: string) => (step.startsWith('In that window') ? popup! : page);
    // What the page's sentences mean; each step must contain at least one of them.
    const actions: Array<[RegExp, (m: RegExpExecArray, step: string) => Promise<void>]> = [
      [/Open (http:\/\/localhost:3000\/\S*?)\.?(?=\s|$)/g, async (m) => void (await page.goto(local(m[1]!)))],
      [/[Pp]ress \*\*(.+?)\*\*/g, async (m, step) => target(step).getByRole('button', { name: m[1]!, exact: true }).click({ timeout: 30_000 })],
      [
        /A window opens on the sandbox provider's consent page/g,
        async () => {
          for (let i = 0; i < 100 && !popup; i++) await new Promise((r) => setTimeout(r, 100));
          assert.ok(popup, 'a window opened');
          await popup.getByRole('button', { name: 'Deny' }).waitFor({ timeout: 30_000 });
        },
      ],
      [/The window closes/g, async () => void (popup!.isClosed() || (await popup!.waitForEvent('close', { timeout: 30_000 })))],
      [/enter `(.+?)` in \*\*(.+?)\*\*/g, async (m) => page.getByLabel(m[2]!).fill(m[1]!, { timeout: 30_000 })],
      [
        /Choose \*\*(.+?)\*\* for \*\*(.+?)\*\*/g,
        async (m) => page.locator('fieldset', { hasText: m[2]! }).getByRole('radio', { name: m[1]!, exact: true }).check(),
      ],
      [/shows \*\*(.+?)\*\*/g, async (m) => page.getByRole('heading', { name: m[1]! }).waitFor({ timeout: 30_000 })],
      [
        /The application of \*\*(.+?)\*\* is there, with her imported skills, credentials, work history and your answers/g,
        async (m) => {
          // Delivery to the pipeline runs in the background: the page says to refresh.
          const card = page.locator('section[data-application-id]', { has: page.getByRole('heading', { name: m[1]! }) });
          for (let i = 0; i < 40 && (await card.count()) === 0; i++) {
            await new Promise((r) => setTimeout(r, 500));
            await page.reload();
          }
          await card.waitFor();
          for (const heading of [/^Skills \([1-9]/, /^Credentials \([1-9]/, /^Work history \([1-9]/, /^Answers$/]) {
            await card.getByRole('heading', { name: heading }).waitFor();
          }
          assert.equal(
            await card
              .getByRole('row', { name: /Years of professional experience/ })
              .getByRole('cell')
              .textContent(),
            '6',
          );
        },
      ],
    ];
    const walk = steps(section('2. Apply on the demo listing'));
    assert.ok(walk.length >= 5, `the walk has its steps (${walk.length})`);
    for (const [index, step] of walk.entries()) {
      const found = actions
        .flatMap(([pattern, run]) => [...step.matchAll(pattern)].map((m) => ({ at: m.index!, run: () => run(m as RegExpExecArray, step) })))
        .sort((a, b) => a.at - b.at);
      assert.ok(found.length > 0, `step ${index + 1} says something the test can do: "${step}"`);
      for (const action of found) await action.run();
    }
    await page.close();
  });

  it('3. next steps: the CLI commands as written (server stopped), then the settings call', async () => {
    await stop();
    const [cli, curl] = codeBlocks(section('3. Next steps'), 'sh');
    const run = (command: string) => {
      const result = spawnSync('bash', ['-c', command], { cwd: PACKAGE_ROOT, env: env() as NodeJS.ProcessEnv, encoding: 'utf8', timeout: 120_000 });
      assert.equal(result.status, 0, `${command}\n${result.stdout}${result.stderr}`);
      return result.stdout;
    };
    const [createOrg, createListing] = cli!.trim().split('\n');
    // "The first prints `{…}`, the second `{…}`": the keys each command prints, per the page.
    const printed = [...section('3. Next steps').matchAll(/prints `(\{.*?\})`, the second\s+`(\{.*?\})`/gs)][0];
    assert.ok(printed, 'the page says what the commands print');
    // Nested values are elided (`{…}`) on the page, so its keys are the top-level ones.
    const keys = (sample: string) => [...sample.matchAll(/"(\w+)":/g)].map((m) => m[1]!);
    const org = JSON.parse(run(createOrg!));
    assert.deepEqual(Object.keys(org), keys(printed[1]!), 'org create prints what the page says');
    assert.match(org.organization_id, /^org_/);
    const listing = JSON.parse(run(createListing!.replace('org_…', org.organization_id)));
    assert.deepEqual(Object.keys(listing), keys(printed[2]!), 'listing create prints what the page says');
    assert.match(listing.listing_id, /^listing_/);

    server = await start();
    const patched = run(
      `${curl!
        .replace(/\\\n\s*/g, ' ')
        .trim()
        .replaceAll(DOC_ORIGIN, `http://localhost:${port}`)
        .replace('hik_…', org.api_key)} -s -o /dev/null -w '%{http_code}'`,
    );
    assert.equal(patched, '200', 'the settings call answers 200');
    await stop();
  });
});
