/** Debian's xmllint (libxml2-utils), a validator we did not write, for the job feed tests. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** xmllint's verdict: empty when the document validates against the XSD. */
export function xmllintErrors(xml: string, xsd?: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'job-feed-'));
  try {
    const file = path.join(dir, 'feed.xml');
    writeFileSync(file, xml);
    execFileSync('xmllint', ['--noout', '--nonet', ...(xsd ? ['--schema', xsd] : []), file], { stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
