/** A counterpart's answer as JSON, or undefined when it sent nothing or something else (its status then decides). */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
