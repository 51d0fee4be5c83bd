/**
 * The docs hold together: every relative link in README.md, BENCHMARKS.md and docs/*.md
 * points at a file that exists and, with a #fragment, at a heading (GitHub's anchor for
 * it) or an explicit <a id> of that file; every repository path the pages quote as code
 * (`src/…/x.ts`, `test/…`, `docker/compose.yml`) exists, so a moved file cannot leave the
 * docs pointing at nothing; every page of docs/ is reachable from its index; the README
 * stays short and keeps CI's test command.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const DOCS = path.join(ROOT, 'docs');

const pages = (): string[] => [
  path.join(ROOT, 'README.md'),
  path.join(ROOT, 'BENCHMARKS.md'),
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(DOCS, name)),
];

/** The text outside fenced code blocks, with inline code spans removed. */
export function prose(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, (span) => (span.includes('](') ? '' : span.replace(/[[\]()]/g, ' ')));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a page offers: its headings (repeats numbered as GitHub does) and <a id="…"> / <a name="…">. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(id);
  return found;
}

/** Relative link targets of a page: [text](target) and [text](target "title"); web and mail links are not ours. */
export function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    links.push(target);
  }
  return links;
}

/** Repository paths quoted as code (`src/x.ts`, `test/…/`, `docker/compose.yml`); patterns and placeholders are not paths. */
export function quotedPaths(markdown: string): string[] {
  const paths: string[] = [];
  for (const [, quoted] of markdown.matchAll(/`((?:src|test|bench|scripts|jobs|docker|migrations|bin)\/[^`\s]*)`/g)) {
    if (/[*<>{}]/.test(quoted)) continue;
    if (quoted.endsWith('/') || /\.(ts|js|mjs|cjs|json|ya?ml|md|sql)$/.test(quoted)) paths.push(quoted);
  }
  return paths;
}

function brokenLinks(file: string): string[] {
  const markdown = readFileSync(file, 'utf8');
  const problems: string[] = [];
  for (const link of relativeLinks(markdown)) {
    const [target, fragment] = link.split('#', 2);
    const resolved = target ? path.resolve(path.dirname(file), decodeURIComponent(target)) : file;
    const where = `${path.relative(ROOT, file)}: (${link})`;
    if (!existsSync(resolved)) {
      problems.push(`${where} → no file ${path.relative(ROOT, resolved)}`);
      continue;
    }
    if (fragment === undefined || statSync(resolved).isDirectory()) continue;
    if (!resolved.endsWith('.md')) continue;
    if (!anchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(fragment))) {
      problems.push(`${where} → no heading or anchor #${fragment} in ${path.relative(ROOT, resolved)}`);
    }
  }
  return problems;
}

describe('Documentation links', () => {
  it('every relative link in README.md, BENCHMARKS.md and docs/*.md resolves to a file and, with #, to a heading of it', () => {
    const problems = pages().flatMap(brokenLinks);
    assert.deepEqual(problems, [], `broken links:\n${problems.join('\n')}`);
  });

  it('every repository path quoted as code in those pages exists', () => {
    const missing = pages().flatMap((file) =>
      quotedPaths(readFileSync(file, 'utf8'))
        .filter((quoted) => !existsSync(path.join(ROOT, quoted)))
        .map((quoted) => `${path.relative(ROOT, file)}: ${quoted}`),
    );
    assert.deepEqual(missing, [], `paths that do not exist:\n${missing.join('\n')}`);
  });

  it('every page of docs/ is linked from the index, docs/README.md', () => {
    const index = new Set(relativeLinks(readFileSync(path.join(DOCS, 'README.md'), 'utf8')).map((link) => link.split('#')[0]));
    const unlinked = readdirSync(DOCS).filter((name) => name.endsWith('.md') && name !== 'README.md' && !index.has(name));
    assert.deepEqual(unlinked, [], `pages missing from docs/README.md: ${unlinked.join(', ')}`);
  });

  it('README.md stays under 250 lines and runs the tests with exactly `npm test` (what CI runs)', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.ok(readme.split('\n').length < 250, `README.md has ${readme.split('\n').length} lines`);
    assert.match(readme, /^npm test(\s|$)/m);
  });

  it('the checker itself: anchors as GitHub makes them, links outside code only, broken ones reported', () => {
    assert.equal(slug('What we promise, and the test that holds us to it'), 'what-we-promise-and-the-test-that-holds-us-to-it');
    assert.equal(slug('The `<profile-apply>` widget'), 'the-profile-apply-widget');
    assert.equal(slug("`profile_user_id` and the provider's subject"), 'profile_user_id-and-the-providers-subject');
    assert.deepEqual([...anchors('# A\n## B c\n## B c\n<a id="x"></a>\n```\n# not a heading\n```\n')], ['a', 'b-c', 'b-c-1', 'x']);
    assert.deepEqual(relativeLinks('[a](x.md#y) [b](https://e.com) `[c](z.md)`\n```\n[d](w.md)\n```\n[e](<v.md> "t")'), ['x.md#y', 'v.md']);
    assert.deepEqual(quotedPaths('`src/a.ts` `jobs/*.ts` `test/unit/` `docker/.env` `src/widget/i18n/<locale>.ts` `dist/x.js`'), ['src/a.ts', 'test/unit/']);
  });
});
