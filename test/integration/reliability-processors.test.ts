/**
 * Processors say how they are idempotent: every job processor (jobs/*.ts, and every
 * processor the manifest names) opens with a header comment that explains it, so a
 * retry, a relay re-dispatch or a stalled-job recovery is known to be safe.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadManifest, PACKAGE_ROOT } from '../../src/manifest/manifest';

function headerComment(source: string): string {
  const match = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(source);
  return match ? match[1]! : '';
}

describe('processors say how they are idempotent', () => {
  const dir = path.join(PACKAGE_ROOT, 'jobs');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  it('finds the processors', () => {
    assert.ok(files.length >= 1, 'jobs/ holds processors');
    for (const queue of loadManifest().queues) {
      const source = queue.processor.replace(/\.js$/, '.ts');
      assert.ok(files.includes(path.basename(source)), `${queue.name}: ${source} exists in jobs/`);
    }
  });

  for (const file of readdirSync(path.join(PACKAGE_ROOT, 'jobs')).filter((f) => f.endsWith('.ts'))) {
    it(`jobs/${file} explains its idempotency in its header comment`, () => {
      const header = headerComment(readFileSync(path.join(dir, file), 'utf8'));
      assert.ok(header.length > 0, `jobs/${file} starts with a header comment`);
      assert.match(header, /idempoten/i, `jobs/${file}: the header comment says how the processor is idempotent`);
      // More than the word: it names the mechanism (a deterministic job id, a unique key, an upsert, a check before acting...).
      assert.match(header, /job id|jobId|unique|upsert|on conflict|already|once|dedupe|checked/i, `jobs/${file}: the header comment names the mechanism`);
    });
  }
});
