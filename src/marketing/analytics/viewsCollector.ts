import type { AnalyticsClient, AnalyticsRange } from '../../clients/providers/analytics';
import { ProviderError } from '../../clients/providers/errors';

/** Why one project's pairs have no collector figures (its collector query failed, or there is no collector). */
export const PROJECT_DEGRADED_REASONS = [
  'collector_not_configured',
  'collector_auth',
  'site_not_found',
  'collector_rate_limited',
  'collector_unreachable',
  'collector_bad_response',
] as const;
export type ProjectDegradedReason = (typeof PROJECT_DEGRADED_REASONS)[number];

/** One project's collector query: its site and the paths asked for. */
export interface SiteQuery {
  projectId: string;
  siteId: string;
  paths: string[];
}

/** Form submits per path of the project's site, or why the collector gave none. */
export type CollectorOutcome = { submits: Map<string, number> } | { reason: ProjectDegradedReason };

/**
 * One form-submits query per project, all at once; each project's failure is its own. The Stats API answers the same
 * 401 for a wrong key and for a site the key cannot see: when the same key was answered for another project of the
 * batch, the key is good and such a 401 means the site is unknown to it.
 */
export async function collectorSubmits(
  client: AnalyticsClient | null,
  queries: SiteQuery[],
  range: AnalyticsRange,
): Promise<Map<string, CollectorOutcome>> {
  if (!client) return new Map(queries.map((q) => [q.projectId, { reason: 'collector_not_configured' }]));
  const settled = await Promise.all(
    queries.map(async (q): Promise<[string, Map<string, number> | ProviderError]> => {
      try {
        return [q.projectId, await client.pageFormSubmits(q.siteId, q.paths, range)];
      } catch (err) {
        if (err instanceof ProviderError) return [q.projectId, err];
        throw err;
      }
    }),
  );
  const keyAnswered = settled.some(([, answer]) => answer instanceof Map);
  return new Map(
    settled.map(([projectId, answer]): [string, CollectorOutcome] => [
      projectId,
      answer instanceof Map ? { submits: answer } : { reason: reasonOf(answer, keyAnswered) },
    ]),
  );
}

/** The truthful reason of a collector failure (clients/providers/analyticsErrors.ts codes). */
export function reasonOf(err: ProviderError, keyAnswered: boolean): ProjectDegradedReason {
  switch (err.code) {
    case 'analytics_auth':
      return keyAnswered && err.upstreamCode === 'invalid_key_or_site' ? 'site_not_found' : 'collector_auth';
    case 'analytics_site_not_found':
      return 'site_not_found';
    case 'analytics_rate_limited':
      return 'collector_rate_limited';
    case 'analytics_unavailable':
      return 'collector_unreachable';
    default:
      return 'collector_bad_response';
  }
}
