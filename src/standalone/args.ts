/** A small argument parser: words, `--name value` and boolean `--flag`. */
export class UsageError extends Error {}

export interface ParsedArgs {
  words: string[];
  options: Map<string, string | true>;
}

export function parseArgs(argv: readonly string[], booleans: readonly string[] = ['json', 'help', 'worker']): ParsedArgs {
  const words: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (booleans.includes(name)) options.set(name, true);
    else if (inline !== undefined) options.set(name, inline);
    else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
      i++;
    }
  }
  return { words, options };
}

export function required(args: ParsedArgs, name: string): string {
  const value = args.options.get(name);
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function allowOnly(args: ParsedArgs, names: readonly string[]): void {
  for (const name of args.options.keys()) {
    if (!names.includes(name)) throw new UsageError(`unknown option --${name}`);
  }
}
