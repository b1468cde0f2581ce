import type { z } from 'zod';
import { ApiError } from './errors';

/** Parses one part of a request; a failure is 400 `validation_failed` naming every failing field. */
export function validatePart<T extends z.ZodType>(part: 'params' | 'query' | 'body', schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => ({
    path: [part, ...issue.path.map(String)].join('.'),
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  throw new ApiError(400, 'validation_failed', `invalid request: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, { errors });
}
