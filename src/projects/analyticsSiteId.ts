import { z } from 'zod';

/**
 * A project's site id in the web-analytics collector: Plausible's `site_id`, the site's domain as registered there
 * (`example.com`, `blog.example.com`, or a custom name on a self-hosted instance), so only its length and the absence
 * of whitespace and control characters are checked. Null (or "") clears it.
 */
export const analyticsSiteIdField = z
  .string()
  .trim()
  .max(255, { error: 'must be at most 255 characters' })
  .nullable()
  .transform((v) => (v === '' ? null : v))
  .refine((v) => v === null || !/[\s\u0000-\u001f\u007f]/.test(v), { error: 'must not contain spaces or control characters' })
  .describe('The project\'s site in the web-analytics collector (Plausible `site_id`, e.g. `example.com`); null or "" clears it.');
