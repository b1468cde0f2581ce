import { z } from 'zod';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);

/**
 * A project's public hostname: trimmed and lowercased, at least two labels, no scheme, path, port or trailing dot
 * (`www.example.com`, not `https://www.example.com/` or `example.com:8080`). Null (or "") clears it.
 */
export const hostField = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, { error: 'must be at most 253 characters' })
  .nullable()
  .transform((v) => (v === '' ? null : v))
  .refine((v) => v === null || HOSTNAME.test(v), { error: 'must be a hostname like www.example.com: no scheme, path or port' });
