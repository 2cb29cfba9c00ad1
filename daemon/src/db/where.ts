/** A condition of a WHERE clause and its value; left out when the value is undefined or empty. */
export type Condition = [sql: string, value: unknown];

/** Builds `WHERE a = ? AND b < ?` and its arguments from the conditions whose value is given. */
export function whereClause(conditions: Condition[]): { clause: string; args: unknown[] } {
  const kept = conditions.filter(
    ([, value]) => value !== undefined && value !== null && value !== '',
  );
  return {
    clause: kept.length ? `WHERE ${kept.map(([sql]) => sql).join(' AND ')}` : '',
    args: kept.map(([, value]) => value),
  };
}
