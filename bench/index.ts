import { startBenchEnv } from './lib/env';
import { printResult, type ScenarioResult } from './lib/report';
import { aiTurn } from './scenarios/aiTurn';
import { caseStudy } from './scenarios/caseStudy';
import { cluster } from './scenarios/cluster';
import { commerceBackfill } from './scenarios/commerceBackfill';
import { commerceBacklog } from './scenarios/commerceBacklog';
import { commerceWebhook } from './scenarios/commerceWebhook';
import { contentList } from './scenarios/contentList';
import { costs } from './scenarios/costs';
import { crmSearch } from './scenarios/crmSearch';
import { emailDkim } from './scenarios/emailDkim';
import { emailSend } from './scenarios/emailSend';
import { emailLiveSend } from './scenarios/emailLiveSend';
import { imageRun } from './scenarios/imageRun';
import { jobStart } from './scenarios/jobStart';
import { researchRun } from './scenarios/researchRun';
import { routeFloor } from './scenarios/routeFloor';
import { scale } from './scenarios/scale';
import { scheduleFire } from './scenarios/scheduleFire';
import { siteOp } from './scenarios/siteOp';
import { siteWebhook } from './scenarios/siteWebhook';
import { smtpSend } from './scenarios/smtpSend';
import { viewsBatch } from './scenarios/viewsBatch';

const SCENARIOS: Record<string, (env: Awaited<ReturnType<typeof startBenchEnv>>) => Promise<ScenarioResult | ScenarioResult[]>> = {
  'crm-search': crmSearch,
  'job-start': jobStart,
  'content-list': contentList,
  'commerce-webhook': commerceWebhook,
  'commerce-backlog': commerceBacklog,
  'commerce-backfill': commerceBackfill,
  'research-run': researchRun,
  'email-send': emailSend,
  'email-live-send': emailLiveSend,
  'smtp-send': smtpSend,
  'email-dkim': emailDkim,
  'site-op': siteOp,
  'site-webhook': siteWebhook,
  'schedule-fire': scheduleFire,
  'image-run': imageRun,
  'case-study': caseStudy,
  'views-batch': viewsBatch,
  'ai-turn': aiTurn,
  'route-floor': routeFloor,
  scale,
  costs,
  cluster,
};

/** `npm run bench [-- scenario …]`: each scenario prints our figure, a baseline measured in the same run, and the ratio. */
async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(name in SCENARIOS));
  if (unknown.length) {
    console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
  const env = await startBenchEnv();
  try {
    // Only when asked for by name: `costs` re-runs the other scenarios with a probe; `cluster` starts a Temporal cluster.
    for (const name of wanted.length ? wanted : Object.keys(SCENARIOS).filter((n) => n !== 'costs' && n !== 'cluster')) {
      for (const result of [await SCENARIOS[name](env)].flat()) printResult(result);
    }
  } finally {
    await env.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
