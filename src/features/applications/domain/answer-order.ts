/**
 * Answers in the order the listing asks its questions. Answers are stored as a JSON
 * object, and PostgreSQL's jsonb gives its keys back shortest first, so whoever shows or
 * forwards them orders them by the listing; answers to questions the listing no longer
 * asks follow, in the order they came.
 */
export function inQuestionOrder<T>(answers: Readonly<Record<string, T>>, questions: readonly { key: string }[]): [string, T][] {
  const asked = questions.filter((q) => Object.hasOwn(answers, q.key)).map((q): [string, T] => [q.key, answers[q.key]!]);
  const known = new Set(questions.map((q) => q.key));
  return [...asked, ...Object.entries(answers).filter(([key]) => !known.has(key))];
}
