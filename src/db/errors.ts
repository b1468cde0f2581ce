/** Postgres unique violation on a named index. */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === constraint;
}

/** Postgres foreign-key violation on a named constraint (a referenced row missing, or still referenced on delete). */
export function isForeignKeyViolation(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23503' && e.constraint === constraint;
}
