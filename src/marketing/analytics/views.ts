import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import type { Config } from '../../config';
import { findOwnProjects } from '../../projects/service';
import { createAnalyticsClient, type AnalyticsClient } from '../../providers/analytics';
import { ProviderError } from '../../providers/errors';
import type { LedgerPathStats } from './ledgerStats';
import { leadsByProjectPath } from './ledgerStore';
import { rangesOf, type AnalyticsWindow } from './window';

export interface ViewsPair {
  project_id: string;
  /** Already normalised (paths.ts). */
  path: string;
}

export interface PathStats extends ViewsPair {
  form_submits: number;
  leads: number;
  contacts: number;
}

export type DegradedReason = 'collector_not_configured' | 'collector_unreachable';

export interface ViewsAnswer {
  stats: PathStats[];
  degraded: boolean;
  degraded_reason: DegradedReason | null;
  /** With the collector degraded: the ledger's figures, which stand alone (leads, contacts); else empty. */
  ledger: Array<ViewsPair & LedgerPathStats>;
  /** Projects asked for that have no collector site id: their form submits are unknown (their pairs are in `ledger`). */
  projects_without_site: string[];
}

type Deps = { db: Knex; config: Config; logger: Logger };

/** Form submits per path of one project's site, or the collector's failure. */
async function collectorSubmits(
  client: AnalyticsClient,
  siteId: string,
  paths: string[],
  range: ReturnType<typeof rangesOf>['collector'],
): Promise<Map<string, number> | 'unreachable'> {
  try {
    return await client.pageFormSubmits(siteId, paths, range);
  } catch (err) {
    if (err instanceof ProviderError) return 'unreachable';
    throw err;
  }
}

/**
 * Page and lead stats for up to 200 (project, path) pairs; writes nothing. Pairs of projects the account does not own
 * are omitted. One collector query per project (form submits of its site's pages) and one ledger query for the batch
 * (leads and contacts). A pair with no data on either side is absent, not zero. The collector unreachable, or not configured:
 * `stats` is empty, `degraded` true, and the ledger's own figures are answered in `ledger`.
 */
export async function viewsBatch(
  deps: Deps,
  accountId: string,
  pairs: ViewsPair[],
  window: AnalyticsWindow,
  now = new Date(),
): Promise<ViewsAnswer> {
  const projects = await findOwnProjects(
    deps.db,
    accountId,
    pairs.map((p) => p.project_id),
  );
  const byProject = new Map<string, string[]>();
  for (const p of pairs) {
    if (!projects.has(p.project_id)) continue;
    const paths = byProject.get(p.project_id) ?? [];
    if (!paths.includes(p.path)) paths.push(p.path);
    byProject.set(p.project_id, paths);
  }
  const ranges = rangesOf(window, now);
  const client = createAnalyticsClient(deps.config);
  let unreachable = false;
  const [ledgerRows, submitsByProject] = await Promise.all([
    leadsByProjectPath(
      deps.db,
      accountId,
      [...byProject].flatMap(([projectId, paths]) => paths.map((path) => ({ projectId, path }))),
      ranges.ledger,
    ),
    Promise.all(
      [...byProject].map(async ([projectId, paths]) => {
        const siteId = projects.get(projectId)!.analytics_site_id;
        const submits = client && siteId ? await collectorSubmits(client, siteId, paths, ranges.collector) : null;
        if (submits === 'unreachable') unreachable = true;
        return { projectId, paths, siteId, submits: submits === 'unreachable' ? null : submits };
      }),
    ),
  ]);
  const ledgerOf = new Map<string, LedgerPathStats>();
  for (const r of ledgerRows) ledgerOf.set(`${r.project_id}|${r.page_path}`, { leads: r.leads, contacts: r.contacts });
  const perProject = submitsByProject.map((p) => ({
    ...p,
    ledger: new Map(
      p.paths.flatMap((path) => (ledgerOf.has(`${p.projectId}|${path}`) ? [[path, ledgerOf.get(`${p.projectId}|${path}`)!]] : [])),
    ),
  }));

  const degradedReason: DegradedReason | null = !client ? 'collector_not_configured' : unreachable ? 'collector_unreachable' : null;
  const ledgerOnly = perProject.flatMap(({ projectId, paths, ledger }) =>
    paths.flatMap((path) => {
      const l = ledger.get(path);
      return l ? [{ project_id: projectId, path, ...l }] : [];
    }),
  );
  if (degradedReason) {
    return { stats: [], degraded: true, degraded_reason: degradedReason, ledger: ledgerOnly, projects_without_site: [] };
  }
  const stats: PathStats[] = [];
  const withoutSite: string[] = [];
  for (const { projectId, paths, ledger, submits, siteId } of perProject) {
    if (!siteId) withoutSite.push(projectId);
    for (const path of paths) {
      const l = ledger.get(path);
      const formSubmits = submits?.get(path);
      if (!l && formSubmits === undefined) continue;
      if (!siteId) continue;
      stats.push({ project_id: projectId, path, form_submits: formSubmits ?? 0, leads: l?.leads ?? 0, contacts: l?.contacts ?? 0 });
    }
  }
  const ledgerOfSiteless = ledgerOnly.filter((e) => withoutSite.includes(e.project_id));
  return { stats, degraded: false, degraded_reason: null, ledger: ledgerOfSiteless, projects_without_site: withoutSite };
}
