/**
 * Renders one message: subject, plain text and HTML from the kind's template in the
 * recipient's language. Every parameter is escaped in the HTML (the one escaper in
 * kernel/html-escape); the HTML carries `lang` and `dir` so mail clients and screen
 * readers read it right; the text part is the same words.
 */
import { escapeHtml } from '../../../kernel/html-escape';
import { messageLanguage, type MessageLanguage } from './message-language';
import { TEMPLATES, type LinkKind, type MessageKind } from './message-templates';

export type MessageParams = Record<string, string | undefined>;

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
  /** BCP 47 tag for Content-Language. */
  language: string;
}

export interface RenderOptions {
  links?: readonly { kind: LinkKind; url: string }[];
  /** Adds the "you receive this because …" line (status updates) */
  footer?: 'unsubscribe';
}

const PARAM = /\{([a-z_]+)\}/g;

/** The line with its parameters, or undefined when one of them is missing. */
function fill(line: string, params: MessageParams, escape: (s: string) => string): string | undefined {
  let missing = false;
  const filled = line.replace(PARAM, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === '') missing = true;
    return escape(value ?? '');
  });
  return missing ? undefined : filled;
}

function lines(template: readonly (string | readonly string[])[], params: MessageParams, escape: (s: string) => string): string[] {
  return template.flatMap((line) => {
    for (const alternative of typeof line === 'string' ? [line] : line) {
      const filled = fill(alternative, params, escape);
      if (filled !== undefined) return [filled];
    }
    return [];
  });
}

export function renderMessage(
  kind: MessageKind,
  requestedLanguage: string | MessageLanguage | undefined,
  params: MessageParams,
  options: RenderOptions = {},
): RenderedMessage {
  const language = typeof requestedLanguage === 'object' ? requestedLanguage : messageLanguage(requestedLanguage);
  const strings = TEMPLATES[language.locale];
  const template = strings[kind];
  const plain = (s: string) => s;
  // A header: parameters come from hook payloads, so no line breaks get into it.
  const subject = template.subject.replace(PARAM, (_, key: string) => params[key] ?? '').replace(/[\r\n\t]+/g, ' ');
  const footer = options.footer === 'unsubscribe' ? strings.footer_unsubscribe : undefined;
  const links = options.links ?? [];

  const textLines = lines(template.lines, params, plain);
  const text = [
    ...textLines,
    ...links.map((l) => `${strings.links[l.kind]}: ${l.url}`),
    ...(footer ? ['', ...[fill(footer, params, plain)].filter((x): x is string => !!x)] : []),
  ].join('\n');

  const htmlLines = lines(template.lines, params, escapeHtml).map((l) => `<p>${l}</p>`);
  const htmlLinks = links.map((l) => `<p><a href="${escapeHtml(l.url)}">${escapeHtml(strings.links[l.kind])}</a></p>`);
  const htmlFooter = footer ? fill(footer, params, escapeHtml) : undefined;
  const html = [
    '<!doctype html>',
    `<html lang="${escapeHtml(language.tag)}" dir="${language.direction}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;line-height:1.5">',
    ...htmlLines,
    ...htmlLinks,
    ...(htmlFooter ? [`<p style="color:#59636e;font-size:90%">${htmlFooter}</p>`] : []),
    '</body></html>',
  ].join('\n');
  return { subject, text, html, language: language.tag };
}
