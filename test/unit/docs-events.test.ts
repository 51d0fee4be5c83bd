/**
 * The events the docs list are the events the plugin publishes: docs/api.md's "Event types"
 * table names every event of the manifest's `events` exactly once and no other, and every
 * event name the source publishes literally (`publish('x.y'`, `announce('x.y'`, an
 * `…_EVENT = 'x.y'` constant, a billing effect `{ name: 'x.y', payload }`) is in the manifest.
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
    new RegExp(String.raw`_EVENT = ${name}`, 'g'),
    new RegExp(String.raw`\{ name: ${name}, payload`, 'g'),
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1]));
}

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
    assert.deepEqual(publishedLiterals("x.publish(\n  'a.b', o); y.announce('c.d'); const E_EVENT = 'e.f'; push({ name: 'g.h', payload }); f('i.j')"), [
      'a.b',
      'c.d',
      'e.f',
      'g.h',
    ]);
  });
});
