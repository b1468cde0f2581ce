import { z } from 'zod';

/**
 * The JSON Schema of a tool's arguments as the chat-completions `tools` parameter takes it: an object schema of
 * what the caller sends (`io: 'input'`, so coercions and transforms show their input side), without `$schema`.
 * `omit` drops properties the model must never send (the platform tools' `confirm`).
 */
export function parametersOf(schema: z.ZodType, omit: readonly string[] = []): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  if (json.type !== 'object') throw new Error('a tool takes an object of arguments');
  const properties = { ...((json.properties as Record<string, unknown> | undefined) ?? {}) };
  for (const key of omit) delete properties[key];
  const required = ((json.required as string[] | undefined) ?? []).filter((key) => !omit.includes(key));
  const { required: _all, ...rest } = json;
  return required.length ? { ...rest, properties, required } : { ...rest, properties };
}
