/** RFC 4180 fields, with spreadsheet formula injection defused (a leading = + - @ is quoted behind an apostrophe). */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (fields: (string | number | null)[]) => `${fields.map(csvField).join(',')}\r\n`;
