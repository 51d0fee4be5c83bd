/**
 * The placeholder language of document templates: plain text with `{{candidate.name}}`-style
 * placeholders, nothing else. A placeholder names a value from a fixed list (or `fields.<key>`,
 * a value the caller supplies); there are no expressions, loops or calls, so a template can
 * never run code or reach data the envelope was not given. Lines starting with `# ` are
 * headings; a blank line separates paragraphs. Checked when saved, filled when sent.
 */
import { invalid } from '../../../kernel/errors';

/** The values every envelope has or may be given (the API's `values` and the hook's offer fields fill them). */
export const KNOWN_PLACEHOLDERS = [
  'candidate.name',
  'candidate.email',
  'organization.name',
  'document.title',
  'offer.job_title',
  'offer.salary',
  'offer.currency',
  'offer.start_date',
  'today',
] as const;

const CUSTOM = /^fields\.[a-z][a-z0-9_]{0,39}$/;
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
export const MAX_TEMPLATE_LENGTH = 20_000;

const isKnown = (name: string) => (KNOWN_PLACEHOLDERS as readonly string[]).includes(name) || CUSTOM.test(name);

/** The placeholders a template uses (each once), or a 400 naming the first problem. */
export function checkTemplate(body: string, param = 'body'): string[] {
  if (body.length > MAX_TEMPLATE_LENGTH) throw invalid('template_too_long', `A template has at most ${MAX_TEMPLATE_LENGTH} characters`, param);
  const used = new Set<string>();
  for (const match of body.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (!isKnown(name))
      throw invalid(
        'template_placeholder_unknown',
        `{{${name.slice(0, 60)}}} is not a placeholder: use one of ${KNOWN_PLACEHOLDERS.join(', ')} or fields.<lowercase_key>`,
        param,
      );
    used.add(name);
  }
  // Whatever braces are left once the placeholders are taken out are a typo (`{{name}`, `{{ {x} }}`).
  const rest = body.replace(PLACEHOLDER, '');
  if (rest.includes('{{') || rest.includes('}}')) throw invalid('template_syntax_invalid', 'A "{{" or "}}" does not belong to a placeholder {{name}}', param);
  return [...used];
}

/** The template with every placeholder replaced by its value (plain text: the PDF prints it, nothing interprets it). */
export function fillTemplate(body: string, values: Readonly<Record<string, string>>, param = 'values'): string {
  const missing = checkTemplate(body).filter((name) => values[name] === undefined);
  if (missing.length > 0) throw invalid('template_value_missing', `The template needs a value for ${missing.map((m) => `{{${m}}}`).join(', ')}`, param);
  return body.replace(PLACEHOLDER, (_, name: string) => values[name]!);
}

/** A filled document's blocks: headings (`# `) and paragraphs (separated by blank lines). */
export function documentBlocks(text: string): { kind: 'heading' | 'paragraph'; text: string }[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block.length > 0)
    .flatMap((block) => {
      const lines = block.split('\n');
      const out: { kind: 'heading' | 'paragraph'; text: string }[] = [];
      let paragraph: string[] = [];
      for (const line of lines) {
        if (line.startsWith('# ')) {
          if (paragraph.length) out.push({ kind: 'paragraph', text: paragraph.join('\n') });
          paragraph = [];
          out.push({ kind: 'heading', text: line.slice(2).trim() });
        } else paragraph.push(line);
      }
      if (paragraph.length) out.push({ kind: 'paragraph', text: paragraph.join('\n') });
      return out;
    });
}
