import type { Knex } from '../../db/knex';
import type { Logger } from '../../logger';
import type { Config } from '../../config';
import { findOwnProjects } from '../../projects/service';
import { createAnalyticsClient } from '../../clients/providers/analytics';
import type { LedgerPathStats } from './ledgerStats';
import { leadsByProjectPath } from './ledgerStore';
import { collectorSubmits, type ProjectDegradedReason, type SiteQuery } from './viewsCollector';
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

/** The batch's reason: the one every degraded project shares, or `mixed` when they differ. */
export type DegradedReason = ProjectDegradedReason | 'mixed';

export interface ViewsAnswer {
  stats: PathStats[];
  degraded: boolean;
  degraded_reason: DegradedReason | null;
  /** Each project whose collector figures are missing, and why. */
  degraded_projects: Array<{ project_id: string; reason: ProjectDegradedReason }>;
  /** Ledger figures (leads, contacts) of the pairs not in `stats`: degraded projects and projects without a site. */
  ledger: Array<ViewsPair & LedgerPathStats>;
  /** Projects asked for that have no collector site id: their form submits are unknown (their pairs are in `ledger`). */
  projects_without_site: string[];
}

type Deps = { db: Knex; config: Config; logger: Logger };

/**
 * Page and lead stats for up to 200 (project, path) pairs; writes nothing. Pairs of projects the account does not own
 * are omitted. One collector query per project (form submits of its site's pages) and one ledger query for the batch
 * (leads and contacts). A pair with no data on either side is absent, not zero. A project whose collector query fails
 * (or with no collector configured) is named in `degraded_projects` and its pairs are answered from the ledger alone;
 * the other projects keep their stats, so with the collector unreachable for all of them `stats` is empty.
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
  const queries: SiteQuery[] = [...byProject].flatMap(([projectId, paths]) => {
    const siteId = projects.get(projectId)!.analytics_site_id;
    return siteId ? [{ projectId, siteId, paths }] : [];
  });
  const ranges = rangesOf(window, now);
  const client = createAnalyticsClient(deps.config);
  const [ledgerRows, outcomes] = await Promise.all([
    leadsByProjectPath(
      deps.db,
      accountId,
      [...byProject].flatMap(([projectId, paths]) => paths.map((path) => ({ projectId, path }))),
      ranges.ledger,
    ),
    collectorSubmits(client, queries, ranges.collector),
  ]);
  const ledgerOf = new Map<string, LedgerPathStats>();
  for (const r of ledgerRows) ledgerOf.set(`${r.project_id}|${r.page_path}`, { leads: r.leads, contacts: r.contacts });

  const answer: ViewsAnswer = {
    stats: [],
    degraded: false,
    degraded_reason: null,
    degraded_projects: [],
    ledger: [],
    projects_without_site: [],
  };
  for (const [projectId, paths] of byProject) {
    const outcome = outcomes.get(projectId);
    if (!outcome) answer.projects_without_site.push(projectId);
    else if ('reason' in outcome) answer.degraded_projects.push({ project_id: projectId, reason: outcome.reason });
    for (const path of paths) {
      const ledger = ledgerOf.get(`${projectId}|${path}`);
      if (outcome && 'submits' in outcome) {
        const formSubmits = outcome.submits.get(path);
        if (!ledger && formSubmits === undefined) continue;
        answer.stats.push({
          project_id: projectId,
          path,
          form_submits: formSubmits ?? 0,
          leads: ledger?.leads ?? 0,
          contacts: ledger?.contacts ?? 0,
        });
      } else if (ledger) {
        answer.ledger.push({ project_id: projectId, path, ...ledger });
      }
    }
  }
  answer.degraded_reason = client ? batchReason(answer.degraded_projects.map((p) => p.reason)) : 'collector_not_configured';
  answer.degraded = answer.degraded_reason !== null;
  return answer;
}

function batchReason(reasons: ProjectDegradedReason[]): DegradedReason | null {
  if (reasons.length === 0) return null;
  return reasons.every((r) => r === reasons[0]) ? reasons[0] : 'mixed';
}
