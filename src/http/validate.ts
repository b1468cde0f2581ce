import type { z } from 'zod';
import { ApiError } from './errors';

/** Postgres text and jsonb store neither U+0000 nor a lone UTF-16 surrogate (jsonb refuses it, text gets U+FFFD). */
const UNSTORABLE: Array<{ pattern: RegExp; message: string }> = [
  { pattern: /\0/, message: 'must not contain the NUL character (U+0000)' },
  // With the u flag a well-formed surrogate pair is one code point, so only a lone surrogate matches.
  { pattern: /\p{Surrogate}/u, message: 'must not contain a lone UTF-16 surrogate (ill-formed Unicode)' },
];

function unstorableIn(text: string): string | null {
  return UNSTORABLE.find(({ pattern }) => pattern.test(text))?.message ?? null;
}

/** A key as it can be shown in a path: without the characters that make it unstorable. */
function printableKey(key: string): string {
  return key.replace(/\0/g, '').replace(/\p{Surrogate}/gu, '\ufffd');
}

/**
 * Where `value` holds a string (as a key or a value) Postgres cannot store, and why; null when it holds none.
 * Iterative, so a deeply nested body cannot overflow the stack.
 */
export function unstorablePathOf(value: unknown): { path: string[]; message: string } | null {
  interface Visit {
    value: unknown;
    key: string;
    parent: Visit | null;
  }
  const pathOf = (visit: Visit | null, last?: string): string[] => {
    const reversed = last === undefined ? [] : [last];
    for (let v = visit; v?.parent; v = v.parent) reversed.push(v.key);
    return reversed.reverse();
  };
  const pending: Visit[] = [{ value, key: '', parent: null }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    if (typeof visit.value === 'string') {
      const message = unstorableIn(visit.value);
      if (message) return { path: pathOf(visit), message };
    } else if (visit.value !== null && typeof visit.value === 'object') {
      for (const [key, child] of Object.entries(visit.value)) {
        const message = unstorableIn(key);
        if (message) return { path: pathOf(visit, printableKey(key)), message };
        pending.push({ value: child, key, parent: visit });
      }
    }
  }
  return null;
}

/**
 * Parses one part of a request; a failure is 400 `validation_failed` naming every failing field. A string with
 * U+0000 or a lone surrogate is refused first: Postgres cannot store it, so it would otherwise fail as a 500 deep
 * in a write (or be rewritten to U+FFFD). `mayHoldUnstorable: false` skips that walk when the caller knows the
 * part holds none (a body whose raw JSON has no `\u` escape).
 */
export function validatePart<T extends z.ZodType>(
  part: 'params' | 'query' | 'body',
  schema: T,
  value: unknown,
  mayHoldUnstorable = true,
): z.output<T> {
  const unstorable = mayHoldUnstorable ? unstorablePathOf(value) : null;
  if (unstorable) {
    const path = [part, ...unstorable.path].join('.');
    throw new ApiError(400, 'validation_failed', `invalid request: ${path}: ${unstorable.message}`, {
      errors: [{ path, message: unstorable.message }],
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
