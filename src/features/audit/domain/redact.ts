/** What an audit event may keep of a request or an answer: secrets replaced, wherever they sit. */
const SECRET_KEY = /(secret|password|token|api_key|apikey|authorization|signature|credential|private_key|ciphertext)/i;
const SECRET_VALUE = /^(whsec_|hik_|sk_|Bearer\s)/;

export const REDACTED = '[redacted]';

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return REDACTED;
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? REDACTED : value.length > 2000 ? `${value.slice(0, 2000)}…` : value;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? REDACTED : redact(v, depth + 1);
    return out;
  }
  return value;
}
