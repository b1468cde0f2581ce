import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { loadConfig } from '../../src/config';
import { createAnalyticsClient } from '../../src/providers/analytics';

/**
 * A bare JSON handler in place of POST /api/agent/marketing/content/views doing only the unavoidable work: one
 * collector query per project (its site from BENCH_VIEWS_SITES, `{projectId: siteId}`), side by side, answered as JSON.
 * No auth, no validation, no path normalisation, no project lookup, no ledger.
 */
export function viewsBatchBaseline(): Middleware {
  const client = createAnalyticsClient(loadConfig(process.env))!;
  const sites = JSON.parse(process.env.BENCH_VIEWS_SITES ?? '{}') as Record<string, string>;
  return async (ctx) => {
    const raw = await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: 1024 * 1024 });
    const { items } = JSON.parse(raw.toString('utf8')) as { items: Array<{ project_id: string; path: string }> };
    const byProject = new Map<string, string[]>();
    for (const i of items) byProject.set(i.project_id, [...(byProject.get(i.project_id) ?? []), i.path]);
    const answers = await Promise.all(
      [...byProject].map(async ([projectId, paths]) => [
        projectId,
        Object.fromEntries(await client.pageFormSubmits(sites[projectId], paths, '30d')),
      ]),
    );
    ctx.status = 200;
    ctx.body = { stats: Object.fromEntries(answers) };
  };
}
