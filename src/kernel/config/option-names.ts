/** defineConfig's option for a variable: its name in camel case (`SECRET_KEY` → `secretKey`). */
export function optionName(env: string): string {
  return env.toLowerCase().replace(/_([a-z0-9])/g, (_match, c: string) => c.toUpperCase());
}
