/**
 * The tables the docs keep are what the code has. Events: docs/api.md's "Event types" table
 * names every event of the manifest's `events` exactly once and no other, and every event name
 * the source publishes literally (`publish('x.y'`, `announce('x.y'` or `announce(events, logger, 'x.y'`, an `…_EVENT = 'x.y'`
 * constant, a billing effect `{ name: 'x.y', payload }`) is in the manifest. Actions:
 * docs/integration-actions.md has one row per catalog action with its price, and its hook
 * handler table names every handler of the manifest (with its hook and action) and no other.
 * Metrics: every metric the source registers has a row in docs/self-hosting.md. Errors: every
 * code of docs/api.md's error table is one the source answers.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

/** Event names in the first column of api.md's event types table (one row may name several). */
export function documentedEvents(apiPage: string): string[] {
  const section = apiPage.split(/^### Event types$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split(' | ')[0].matchAll(/`([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)`/g)].map((m) => m[1]));
}

/** Event names the source publishes as literals. */
export function publishedLiterals(source: string): string[] {
  const name = String.raw`'([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)'`;
  const patterns = [
    new RegExp(String.raw`\.(?:publish|announce)\(\s*${name}`, 'g'),
    new RegExp(String.raw`\bannounce\((?:\s*[\w.]+,)+\s*${name}`, 'g'),
    new RegExp(String.raw`_EVENT = ${name}`, 'g'),
    new RegExp(String.raw`\{ name: ${name}, payload`, 'g'),
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1]));
}

/** The rows (`| … |` lines starting with a code span) of a page's section, cut into cells. */
export function tableRows(page: string, heading: string): string[][] {
  const section = page.split(heading)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(2, -2).split(' | '));
}

const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'widget' ? [] : sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });

describe('Documentation: event types', () => {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'plugin.manifest.json'), 'utf8')) as { events: string[] };
  const documented = documentedEvents(readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8'));

  it("docs/api.md's event types table names every event of the manifest exactly once, and no other", () => {
    const twice = documented.filter((event, i) => documented.indexOf(event) !== i);
    assert.deepEqual(twice, [], `listed more than once: ${twice.join(', ')}`);
    assert.deepEqual(
      documented.filter((event) => !manifest.events.includes(event)),
      [],
      'documented but not in the manifest',
    );
    assert.deepEqual(
      manifest.events.filter((event) => !documented.includes(event)),
      [],
      'in the manifest but not documented',
    );
  });

  it('every event the source publishes by name is declared in the manifest', () => {
    const published = new Set(sources(path.join(ROOT, 'src')).flatMap((file) => publishedLiterals(readFileSync(file, 'utf8'))));
    assert.ok(published.size >= 20, `only ${published.size} literal events found: the scan is broken`);
    assert.deepEqual(
      [...published].filter((event) => !manifest.events.includes(event)).sort(),
      [],
      'published but not in the manifest (nor, then, in docs/api.md)',
    );
  });

  it('the scanners themselves', () => {
    const page = '### Event types\n\n| Type | When |\n|---|---|\n| `a.b`, `c.d` | `x.y` |\n| `e.f` / `g.h` | w |\n\n## Next\n| `z.z` | |\n';
    assert.deepEqual(documentedEvents(page), ['a.b', 'c.d', 'e.f', 'g.h']);
    const source =
      "x.publish(\n  'a.b', o); y.announce('c.d'); announce(this.events, log, 'k.l', o); const E_EVENT = 'e.f'; push({ name: 'g.h', payload }); f('i.j')";
    assert.deepEqual(publishedLiterals(source), ['a.b', 'c.d', 'k.l', 'e.f', 'g.h']);
  });
});

describe('Documentation: integration actions', () => {
  const page = readFileSync(path.join(ROOT, 'docs/integration-actions.md'), 'utf8');
  const catalog = JSON.parse(readFileSync(path.join(ROOT, 'src/features/licensing/catalog.v1.json'), 'utf8')) as {
    groups: { actions: { key: string; price: { amount: number } }[] }[];
  };
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'plugin.manifest.json'), 'utf8')) as {
    hooks: { name: string; hook: string; action: string }[];
  };

  it('the catalog table has one row per action of the catalog, in its order, with its price', () => {
    const rows = tableRows(page, '## What each action does today');
    assert.deepEqual(
      rows.map((cells) => [codeSpans(cells[0])[0], Number(cells[2])]),
      catalog.groups.flatMap((group) => group.actions.map((action) => [action.key, action.price.amount])),
    );
  });

  it('the hook handler table names every handler of the manifest once, with its hook and action, and no other', () => {
    const rows = tableRows(page, '## What runs today: the hook handlers');
    const documented = rows.flatMap((cells) => codeSpans(cells[0]));
    assert.deepEqual([...documented].sort(), manifest.hooks.map((h) => h.name).sort());
    const suffix = (key: string) => key.slice(key.indexOf('.'));
    for (const handler of manifest.hooks) {
      const [, hook, action] = rows.find((cells) => codeSpans(cells[0]).includes(handler.name))!;
      const hooks = codeSpans(hook);
      assert.ok(hooks.includes(handler.hook) || hooks.includes(suffix(handler.hook)), `${handler.name}: hook ${handler.hook}`);
      const actions = codeSpans(action);
      assert.ok(
        actions.includes(handler.action) || actions.includes(suffix(handler.action)) || action === 'the reminder actions',
        `${handler.name}: action ${handler.action}`,
      );
    }
  });
});

describe('Documentation: metrics', () => {
  it("docs/self-hosting.md's metrics table names every metric the source registers", () => {
    const page = readFileSync(path.join(ROOT, 'docs/self-hosting.md'), 'utf8');
    const registered = new Set(
      sources(path.join(ROOT, 'src')).flatMap((file) => {
        const source = readFileSync(file, 'utf8');
        return [
          ...[...source.matchAll(/\$\{METRICS_PREFIX\}([a-z0-9_]+)/g)].map((m) => `hiring_integrations_${m[1]}`),
          ...[...source.matchAll(/name: '(hiring_integrations_[a-z0-9_]+)'/g)].map((m) => m[1]),
        ];
      }),
    );
    assert.ok(registered.size >= 10, `only ${registered.size} metrics found: the scan is broken`);
    assert.deepEqual(
      [...registered].filter((metric) => !page.includes(`| \`${metric}\` |`)),
      [],
      'metrics missing from the table in docs/self-hosting.md',
    );
  });
});

describe('Documentation: error codes', () => {
  it("every code in docs/api.md's error table is one the source answers", () => {
    const page = readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
    const section = page.split(/^## Errors$/m)[1]?.split(/^## /m)[0] ?? '';
    const codes = section
      .split('\n')
      .filter((line) => /^\| [45]\d\d/.test(line))
      .flatMap((line) => codeSpans(line.split(' | ')[1] ?? ''));
    assert.ok(codes.length >= 40, `only ${codes.length} codes found: the scan is broken`);
    const source = sources(path.join(ROOT, 'src'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    assert.deepEqual(
      codes.filter((code) => !source.includes(`'${code}'`) && !source.includes(`"${code}"`) && !source.includes(`\`${code}\``)),
      [],
      'documented codes nothing answers',
    );
  });
});
