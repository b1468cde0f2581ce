/** A short, loggable code for a failure: an ApiError's code, a Postgres SQLSTATE, else the error's name. Never its message. */
export function failureCode(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown };
  if (typeof e?.code === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(e.code)) return e.code;
  return typeof e?.name === 'string' ? e.name : 'internal';
}
