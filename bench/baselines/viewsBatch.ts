import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/knex';
import { leadsByProjectPath } from '../../src/marketing/analytics/ledgerStore';
import { rangesOf } from '../../src/marketing/analytics/window';
import { createAnalyticsClient } from '../../src/clients/providers/analytics';

/**
 * A bare JSON handler in place of POST /api/agent/marketing/content/views doing only the unavoidable work: one
 * collector query per project (its site from BENCH_VIEWS_SITES, `{projectId: siteId}`) and the one ledger statement
 * of the batch (BENCH_ACCOUNT_ID's leads and contacts per pair), all side by side, answered as JSON.
 * No auth, no validation, no path normalisation, no project lookup.
 *
 * Why the ledger statement is here: `leads` and `contacts` are half of every answered pair and live only in
 * Postgres, so no implementation of the route can skip that read; the README fixes it at one statement per batch.
 * Without it the baseline measured a different route (collector only), and on the 2-core bench machine that
 * statement's Postgres CPU alone (≈2 ms a batch) kept the ratio near 0.5 whatever the API did.
 */
export function viewsBatchBaseline(): Middleware {
  const config = loadConfig(process.env);
  const client = createAnalyticsClient(config)!;
  // Its own pool, the size of the API's (bench/servers/benchServers.ts), so neither side waits for the other's.
  const db = createDb(config.DATABASE_URL!, 10);
  const accountId = process.env.BENCH_ACCOUNT_ID!;
  const sites = JSON.parse(process.env.BENCH_VIEWS_SITES ?? '{}') as Record<string, string>;
  return async (ctx) => {
    const raw = await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: 1024 * 1024 });
    const { items } = JSON.parse(raw.toString('utf8')) as { items: Array<{ project_id: string; path: string }> };
    const byProject = new Map<string, string[]>();
    for (const i of items) byProject.set(i.project_id, [...(byProject.get(i.project_id) ?? []), i.path]);
    const ranges = rangesOf('30d', new Date());
    const [ledger, answers] = await Promise.all([
      leadsByProjectPath(
        db,
        accountId,
        items.map((i) => ({ projectId: i.project_id, path: i.path })),
        ranges.ledger,
      ),
      Promise.all(
        [...byProject].map(async ([projectId, paths]) => [
          projectId,
          Object.fromEntries(await client.pageFormSubmits(sites[projectId], paths, ranges.collector)),
        ]),
      ),
    ]);
    ctx.status = 200;
    ctx.body = { stats: Object.fromEntries(answers), ledger };
  };
}
