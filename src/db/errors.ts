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

/**
 * A failure of the database itself rather than of the statement: the server unreachable, shutting down, out of
 * resources, a connection lost or not to be had from the pool in time, a serialization failure or deadlock. Another
 * attempt later may succeed with the same input, so such an error is never recorded as the fault of what was worked.
 */
export function isTransientDbError(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  if (e?.name === 'KnexTimeoutError') return true;
  // node-postgres names a dropped connection, and a connection attempt past its connectionTimeoutMillis, only in its message.
  if (
    typeof e?.message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|timeout expired$)/.test(e.message)
  ) {
    return true;
  }
  const code = typeof e?.code === 'string' ? e.code : '';
  if (/^(ECONN|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)/.test(code)) return true;
  // SQLSTATE classes: 08 connection exception, 53 insufficient resources, 57P operator intervention, 40001/40P01.
  return /^(08|53|57P)/.test(code) || code === '40001' || code === '40P01';
}
