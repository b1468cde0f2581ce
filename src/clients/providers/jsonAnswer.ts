import type { z } from 'zod';
import { ProviderError } from './errors';

/** The JSON of a chat answer: some compatible providers wrap it in a Markdown fence even in JSON mode. */
export function jsonOfAnswer(text: string): unknown {
  return JSON.parse(text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1'));
}

/**
 * A chat answer parsed as JSON and checked against `schema`, or ProviderError `model_bad_response` (not retryable)
 * naming `what` the model was asked for ("an image plan", "a case study").
 */
export function parseJsonAnswer<S extends z.ZodType>(text: string, schema: S, what: string): z.output<S> {
  const bad = (why: string) => new ProviderError('model', 'model_bad_response', `the model API gave ${what} ${why}`, false);
  let value: unknown;
  try {
    value = jsonOfAnswer(text);
  } catch {
    throw bad('that is not JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw bad('without the asked shape');
  return parsed.data;
}
