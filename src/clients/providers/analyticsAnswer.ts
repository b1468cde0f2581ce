import { z } from 'zod';
import { analyticsBadResponse } from './analyticsErrors';

export interface QueryRow {
  dimensions: string[];
  metrics: number[];
}

const rowSchema = z.object({
  dimensions: z.array(z.union([z.string(), z.number()]).transform(String)),
  metrics: z.array(z.number().nullable()),
});
const answerSchema = z.object({ results: z.array(rowSchema) });

/**
 * The rows of a Stats API v2 answer `{ results: [{ dimensions, metrics }], meta, query }`, each with exactly
 * `metricCount` numbers (a null metric, which the reference sends for revenue it cannot compute, reads as 0).
 * Anything else is analytics_bad_response.
 */
export function parseQueryAnswer(json: unknown, metricCount: number, status: number): QueryRow[] {
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) throw analyticsBadResponse('answered with a body that is not a query result', status);
  return parsed.data.results.map((row) => {
    if (row.metrics.length !== metricCount)
      throw analyticsBadResponse(`answered ${row.metrics.length} metrics where ${metricCount} were asked`, status);
    if (row.metrics.some((m) => m !== null && (!Number.isFinite(m) || m < 0)))
      throw analyticsBadResponse('answered a negative count', status);
    return { dimensions: row.dimensions, metrics: row.metrics.map((m) => m ?? 0) };
  });
}
