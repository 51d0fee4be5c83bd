/**
 * Processors say how they are idempotent: every job processor (src/features/<name>/jobs/, which are
 * exactly the processors the manifest names) opens with a header comment that explains it, so a
 * retry, a relay re-dispatch or a stalled-job recovery is known to be safe.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadManifest, PACKAGE_ROOT } from '../../src/platform/manifest/manifest';

function headerComment(source: string): string {
  const match = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(source);
  return match ? match[1]! : '';
}

/** Every processor source: the modules under src/features/<name>/jobs/ that implement JobProcessor. */
function processorSources(): string[] {
  const features = path.join(PACKAGE_ROOT, 'src', 'features');
  const sources: string[] = [];
  for (const feature of readdirSync(features)) {
    const jobs = path.join(features, feature, 'jobs');
    if (!existsSync(jobs)) continue;
    for (const file of readdirSync(jobs).filter((f) => f.endsWith('.ts'))) {
      if (/implements JobProcessor\b/.test(readFileSync(path.join(jobs, file), 'utf8'))) sources.push(`src/features/${feature}/jobs/${file}`);
    }
  }
  return sources.sort();
}

describe('processors say how they are idempotent', () => {
  const files = processorSources();

  it('finds the processors, and the manifest names exactly them', () => {
    assert.ok(files.length >= 1, 'src/features/<name>/jobs/ hold processors');
    const named = loadManifest().queues.map((queue) => queue.processor.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
    assert.deepEqual(named.sort(), files);
  });

  for (const file of files) {
    it(`${file} explains its idempotency in its header comment`, () => {
      const header = headerComment(readFileSync(path.join(PACKAGE_ROOT, file), 'utf8'));
      assert.ok(header.length > 0, `${file} starts with a header comment`);
      assert.match(header, /idempoten/i, `${file}: the header comment says how the processor is idempotent`);
      // More than the word: it names the mechanism (a deterministic job id, a unique key, an upsert, a check before acting...).
      assert.match(header, /job id|jobId|unique|upsert|on conflict|already|once|dedupe|checked/i, `${file}: the header comment names the mechanism`);
    });
  }
});
