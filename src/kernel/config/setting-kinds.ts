/**
 * The kinds of setting the schema is written in. Each builder returns a zod schema that
 * parses the variable's text (already trimmed; blank means unset) and records what the
 * generators need (kind, default, range, secrecy, description) in SETTING_META, so the
 * manifest, the docs and defineConfig's types are written from the same declaration.
 */
import { z } from 'zod';

export type SettingKind = 'string' | 'url' | 'integer' | 'boolean' | 'enum';

export interface SettingMeta {
  kind: SettingKind;
  description: string;
  /** The variable's text when unset, parsed like a given value. */
  default?: string;
  secret?: boolean;
  /** Read only by the standalone host (its server, signals, data folder): not a defineConfig option. */
  standaloneOnly?: boolean;
  values?: readonly string[];
  minimum?: number;
  maximum?: number;
  schemes?: readonly string[];
}

/** What the caller of a builder says; the kind and the checks come from the builder. */
export type SettingInfo = Pick<SettingMeta, 'description' | 'secret' | 'standaloneOnly'>;

export const SETTING_META = z.registry<SettingMeta>();

/** Every setting schema reads text (or nothing) and gives a typed value (or undefined when unset without default). */
export type SettingSchema<Out> = z.ZodType<Out, string | undefined>;

function declare<Out>(schema: z.ZodType<Out, string>, meta: SettingMeta): SettingSchema<Out> {
  const setting = (meta.default === undefined ? schema.optional() : schema.prefault(meta.default)) as SettingSchema<Out>;
  SETTING_META.add(setting, meta);
  return setting;
}

type WithDefault<Out, D> = D extends string ? Out : Out | undefined;

/** Free text, optionally refined into another value (a list, a key) with problems reported by name. */
export function text<D extends string | undefined = undefined, Out = string>(
  info: SettingInfo & { default?: D; parse?: (value: string, ctx: z.RefinementCtx<string>) => Out },
): SettingSchema<WithDefault<Out, D>> {
  const base = info.parse ? z.string().transform(info.parse) : z.string();
  return declare(base as z.ZodType<Out, string>, { kind: 'string', ...info }) as SettingSchema<WithDefault<Out, D>>;
}

/** A non-negative integer within [minimum, maximum]. */
export function integer<D extends string | undefined = undefined>(
  info: SettingInfo & { default?: D; minimum?: number; maximum?: number },
): SettingSchema<WithDefault<number, D>> {
  const minimum = info.minimum ?? 0;
  const outOfRange = (got: unknown) =>
    info.maximum === undefined ? `must be at least ${minimum}` : `must be between ${minimum} and ${info.maximum}, got ${String(got)}`;
  let range = z.number().min(minimum, { error: (issue) => outOfRange(issue.input) });
  if (info.maximum !== undefined) range = range.max(info.maximum, { error: (issue) => outOfRange(issue.input) });
  const schema = z
    .string()
    .regex(/^\d+$/, { error: (issue) => `must be a non-negative integer, got "${String(issue.input)}"` })
    .transform(Number)
    .pipe(range);
  return declare(schema, { kind: 'integer', ...info, minimum }) as SettingSchema<WithDefault<number, D>>;
}

const TRUTHY = ['1', 'true', 'yes', 'on'];
const FALSY = ['0', 'false', 'no', 'off'];

/** true/false (also 1/0, yes/no, on/off, any case). */
export function flag(info: SettingInfo): SettingSchema<boolean | undefined> {
  const schema = z.stringbool({ truthy: TRUTHY, falsy: FALSY, case: 'insensitive', error: (issue) => `must be true or false, got "${String(issue.input)}"` });
  return declare(schema, { kind: 'boolean', ...info });
}

/** One of a fixed list of words. */
export function choice<const V extends readonly [string, ...string[]], D extends V[number] | undefined = undefined>(
  values: V,
  info: SettingInfo & { default?: D },
): SettingSchema<WithDefault<V[number], D>> {
  const schema = z.enum(values, { error: (issue) => `must be one of ${values.join(', ')}, got "${String(issue.input)}"` }) as unknown as z.ZodType<
    V[number],
    string
  >;
  return declare(schema, { kind: 'enum', ...info, values }) as SettingSchema<WithDefault<V[number], D>>;
}

/** An absolute URL (trailing slashes dropped), of one of `schemes` when given, naming a host then. */
export function url(info: SettingInfo & { schemes?: readonly string[] }): SettingSchema<string | undefined> {
  const schema = z.string().transform((value, ctx) => {
    const problem = urlProblem(value, info.schemes);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return value.replace(/\/+$/, '');
  });
  return declare(schema, { kind: 'url', ...info });
}

function urlProblem(value: string, schemes: readonly string[] | undefined): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (!schemes) return undefined;
  const scheme = parsed.protocol.slice(0, -1);
  if (!schemes.includes(scheme)) return `must be a ${schemes.join(' or ')} URL, got ${scheme}:`;
  if (!parsed.hostname) return 'must name a host';
  return undefined;
}
