import type { z } from 'zod';
import { ApiError } from './errors';

/**
 * Where `value` holds a string with U+0000 (as a key or a value), or null when it holds none. Iterative, so a
 * deeply nested body cannot overflow the stack.
 */
export function nulPathOf(value: unknown): string[] | null {
  interface Visit { value: unknown; key: string; parent: Visit | null }
  const pathOf = (visit: Visit | null, last?: string): string[] => {
    const reversed = last === undefined ? [] : [last];
    for (let v = visit; v?.parent; v = v.parent) reversed.push(v.key);
    return reversed.reverse();
  };
  const pending: Visit[] = [{ value, key: '', parent: null }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    if (typeof visit.value === 'string') {
      if (visit.value.includes('\0')) return pathOf(visit);
    } else if (visit.value !== null && typeof visit.value === 'object') {
      for (const [key, child] of Object.entries(visit.value)) {
        if (key.includes('\0')) return pathOf(visit, key.replace(/\0/g, ''));
        pending.push({ value: child, key, parent: visit });
      }
    }
  }
  return null;
}

/**
 * Parses one part of a request; a failure is 400 `validation_failed` naming every failing field. A string with
 * U+0000 is refused first: Postgres text and jsonb cannot store it, so it would otherwise fail as a 500 deep in a
 * write. `mayHoldNul: false` skips that walk when the caller knows the part holds none (a body whose raw JSON has
 * no `\u0000` escape).
 */
export function validatePart<T extends z.ZodType>(part: 'params' | 'query' | 'body', schema: T, value: unknown, mayHoldNul = true): z.output<T> {
  const nulPath = mayHoldNul ? nulPathOf(value) : null;
  if (nulPath) {
    const path = [part, ...nulPath].join('.');
    throw new ApiError(400, 'validation_failed', `invalid request: ${path}: must not contain the NUL character (U+0000)`, {
      errors: [{ path, message: 'must not contain the NUL character (U+0000)' }],
    });
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: [part, ...issue.path.map(String)].join('.'),
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  throw new ApiError(400, 'validation_failed', `invalid request: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, { errors });
}
