/** Everything generated from the schema, as [file, content] for the build script (which formats and writes it) and the staleness test. */
import { DOCS_FILE, renderDocsPage } from './docs-page';
import { HOST_OPTIONS_FILE, renderHostOptions } from './host-options';
import { MANIFEST_FILE, renderManifest } from './manifest-settings';

export { DOCS_FILE, HOST_OPTIONS_FILE, MANIFEST_FILE };

export interface GeneratedFile {
  file: string;
  content: string;
}

/** `read` gives a file's current text (the manifest is rewritten around its `config`). */
export function generatedFiles(read: (file: string) => string): GeneratedFile[] {
  return [
    { file: MANIFEST_FILE, content: renderManifest(read(MANIFEST_FILE)) },
    { file: HOST_OPTIONS_FILE, content: renderHostOptions() },
    { file: DOCS_FILE, content: renderDocsPage() },
  ];
}
