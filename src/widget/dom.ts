/**
 * The widget's renderer: `h(tag, props, ...children)` builds elements with DOM calls
 * (never innerHTML), so nothing from the API or the page is ever parsed as markup and
 * Trusted Types pages are fine. `on*` props become listeners, others attributes (`class`); `false`/`null`/`undefined`
 * props and children are skipped, so a view can write `condition && h(...)`.
 */
export type Child = Node | string | false | null | undefined;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value as EventListener);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

/** A person glyph (the brand line's), built with DOM calls too. */
export function logo(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of [
    ['width', '18'],
    ['height', '18'],
    ['viewBox', '0 0 24 24'],
    ['aria-hidden', 'true'],
    ['focusable', 'false'],
  ])
    svg.setAttribute(k!, v!);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', 'M12 2a5 5 0 1 1 0 10 5 5 0 0 1 0-10Zm0 12c5 0 9 2.2 9 5v3H3v-3c0-2.8 4-5 9-5Z');
  svg.append(path);
  return svg;
}
