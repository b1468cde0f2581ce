import type { Config } from '../config';
import type { AppDeps } from '../deps';
import { findOwnProject, updateProject } from '../projects/service';
import { daysEnding, startAnalyticsSimulator, type AnalyticsSimulator, type SeededDay } from '../sandbox/analytics';

/** The demo project's site in the simulated collector (its host, as Plausible names a site by its domain). */
export const DEMO_ANALYTICS_SITE = 'www.demo-site.example.test';
const DEMO_DAYS = 120;
/** Page path → average daily pageviews of the demo traffic. */
const DEMO_PAGES: Record<string, number> = { '/': 180, '/blog': 60, '/blog/hello-world': 45, '/pricing': 30, '/contact': 12 };

export interface AnalyticsSandbox {
  /** ANALYTICS_API_URL and ANALYTICS_API_KEY of `config` pointed at the simulator (and its form goal). */
  configure(config: Config): Config;
  /** Names the demo site on the demo project when it has no analytics site id yet (a chosen one is kept). */
  prepareDemoProject(deps: AppDeps, accountId: string, projectId: string): Promise<void>;
  bannerLines(): string[];
  stop(): Promise<void>;
}

/** `start --sandbox`, analytics side: the Plausible Stats API v2 simulated on loopback with demo traffic. */
export async function startAnalyticsSandbox(now = new Date()): Promise<AnalyticsSandbox> {
  const analytics: AnalyticsSimulator = await startAnalyticsSimulator({ apiKey: 'plausible-sandbox-demo-key' });
  const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  for (const [path, average] of Object.entries(DEMO_PAGES)) analytics.seed(DEMO_ANALYTICS_SITE, path, demoDays(path, average, yesterday));
  return {
    configure: (config) => ({
      ...config,
      ANALYTICS_API_URL: analytics.url,
      ANALYTICS_API_KEY: analytics.apiKey,
      ANALYTICS_FORM_GOAL: analytics.formGoal,
    }),
    async prepareDemoProject(deps, accountId, projectId) {
      const project = await findOwnProject(deps.db, accountId, projectId);
      if (project && project.analytics_site_id === null) {
        await updateProject(deps.db, accountId, projectId, { analytics_site_id: DEMO_ANALYTICS_SITE });
      }
    },
    bannerLines: () => [
      `Sandbox: web analytics is simulated on loopback (Plausible Stats API v2, ${DEMO_DAYS} days of demo traffic for site ` +
        `${DEMO_ANALYTICS_SITE} on ${Object.keys(DEMO_PAGES).join(', ')}): ${analytics.url}`,
    ],
    stop: () => analytics.stop(),
  };
}

/** Repeatable demo counts: a weekly rhythm around the page's average, no randomness, ending yesterday. */
function demoDays(path: string, average: number, lastDate: string): SeededDay[] {
  const salt = [...path].reduce((sum, c) => sum + c.charCodeAt(0), 0);
  return daysEnding(lastDate, DEMO_DAYS).map((date, i) => {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    const pageviews = Math.round(average * (weekday === 0 || weekday === 6 ? 0.6 : 1.1) * (0.85 + ((i * 7 + salt) % 11) / 30));
    const visitors = Math.round(pageviews * 0.7);
    return { date, pageviews, visitors, form_submits: Math.floor(visitors / (path === '/contact' ? 4 : 40)) };
  });
}
