import { proxyActivities, proxyLocalActivities, workflowInfo, type ActivityOptions, type LocalActivityOptions } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { inPool } from './pool';
import { isStepFailure, reasonOf } from './stepFailure';
import { trackProgress } from './progress';
import {
  RESEARCH_BUDGET_MS,
  type IndexPageOutcome,
  type KeptInput,
  type PageOutcome,
  type ResearchClaim,
  type ResearchInput,
  type ResearchResult,
  type ResearchSerp,
  type ResearchSource,
} from './research.contract';

const retry = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 };

// The timeouts fit the spec's 300 s: the first steps take at most ~2 minutes together; pages and indexing get
// what is left before their deadlines (each call's timeouts are cut to the time remaining, see budgeted).
// Short steps (one query or one search call) run as local activities: recorded in history like any activity, but
// without a round trip through the server to schedule them, which was most of a run's orchestration overhead.
const { researchSubject, researchKept, writeResearchArtifact, stampContentResearch } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  scheduleToCloseTimeout: '15 seconds',
  retry,
});
const { researchKnowledge } = proxyActivities<Activities>({
  // A few model calls (60 s timeout each, run side by side); heartbeats show the worker is alive.
  startToCloseTimeout: '70 seconds',
  scheduleToCloseTimeout: '80 seconds',
  heartbeatTimeout: '10 seconds',
  retry: { ...retry, maximumAttempts: 2 },
});
const { researchSearch } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '20 seconds',
  scheduleToCloseTimeout: '30 seconds',
  retry,
});

// Deadlines within the 300 s, counted from the run's start: pages end by 240 s, indexing by 270 s, which leaves
// the artifact and the stamp 15 s each.
const PAGES_END_MS = RESEARCH_BUDGET_MS - 60_000;
const INDEXING_END_MS = RESEARCH_BUDGET_MS - 30_000;
/** One page: fetch (FETCH_TIMEOUT_MS) plus one model call (60 s). */
const PAGE_START_TO_CLOSE_MS = 90_000;
const PAGE_SCHEDULE_TO_CLOSE_MS = 180_000;
/** One used page: a database write, or on a cache miss one more fetch. */
const INDEX_START_TO_CLOSE_MS = 20_000;
const INDEX_SCHEDULE_TO_CLOSE_MS = 25_000;
/** Less time than this left: the step is not tried. */
const MIN_STEP_MS = 2_000;

/**
 * One research run, in the spec's order: every knowledge base of the account, the web search for the keyword, up
 * to `maxSources` pages (concurrently, bounded), each used page indexed into the research knowledge base, the
 * artifact written, and `settings.research` stamped last (item research only). Each step is an activity; a step
 * that cannot be done becomes a warning or a gap and the run goes on, except reading the item and writing the
 * artifact or the stamp, without which there is no result. A re-run keeps from the stored research what it could not
 * retrieve again (see keepUnretrieved), so a capped search or a failed knowledge search never makes it poorer.
 */
export async function research(input: ResearchInput): Promise<ResearchResult> {
  const progress = trackProgress('knowledge');
  const warnings: string[] = [];
  const gaps: string[] = [];
  const warn = (message: string) => {
    warnings.push(message);
    progress.warn(message);
  };
  const started = workflowInfo().startTime.getTime();

  const subject = await researchSubject({
    accountId: input.accountId,
    contentId: input.contentId,
    topic: input.topic,
    keyword: input.keyword,
  });
  const { topic, keyword } = subject;

  const knowledge = await knowledgeClaims(input.accountId, topic, keyword, warn);

  progress.phase('search');
  const serp = await webSearch(input.accountId, keyword ?? topic, warn);

  const urls = [...new Set((serp?.results ?? []).map((r) => r.url))].slice(0, input.maxSources);
  progress.phase('pages', urls.length);
  // Each used page is indexed as soon as its claims are in (still after the page, as the spec orders), so the
  // indexing of one page overlaps the reading of the others.
  const pages = await inPool(urls, subject.fetchConcurrency, async (url) => {
    const title = serp?.results.find((r) => r.url === url)?.title ?? null;
    const outcome = await readPage({ accountId: input.accountId, url, serpTitle: title, topic, keyword }, started + PAGES_END_MS);
    if (outcome.status === 'gap') gaps.push(outcome.gap);
    else outcome.warnings.forEach(warn);
    const indexing =
      outcome.status === 'read' && outcome.claims.length > 0 ? await indexPage(input.accountId, outcome, started + INDEXING_END_MS) : null;
    if (indexing?.warning) warn(indexing.warning);
    progress.advance();
    return { outcome, indexing };
  });
  const read = pages.flatMap(({ outcome, indexing }) => (outcome.status === 'read' ? [{ page: outcome, indexing }] : []));
  const retrieved = {
    kbClaims: knowledge.claims,
    webClaims: read.flatMap(({ page }) => page.claims),
    sources: read.map(({ page, indexing }): ResearchSource => ({
      url: page.url,
      title: page.title,
      claims: page.claims.length,
      indexed: indexing?.indexed ?? false,
      already_indexed: indexing?.already_indexed ?? false,
    })),
  };

  progress.phase('artifact');
  const { kbClaims, webClaims, sources } = await keepUnretrieved(
    { accountId: input.accountId, contentId: input.contentId, topic, keyword, web: serp === null, knowledge: !knowledge.searched },
    retrieved,
    warn,
  );
  const claims = mergeClaims(kbClaims, webClaims);
  const researchedAt = new Date().toISOString();
  const artifact = await writeResearchArtifact({
    accountId: input.accountId,
    contentId: input.contentId,
    topic,
    keyword,
    claims,
    sources,
    serp,
    gaps,
    warnings,
    researchedAt,
  });
  const result: ResearchResult = {
    run_id: workflowInfo().workflowId,
    content_id: input.contentId,
    topic,
    keyword,
    knowledge_base_id: artifact.knowledgeBaseId,
    artifact_id: artifact.artifactId,
    artifact_created: artifact.created,
    extraction: subject.extraction,
    claims,
    sources,
    serp,
    warnings,
    gaps,
  };

  if (input.contentId) {
    progress.phase('stamp');
    const stamped = await stampContentResearch({ accountId: input.accountId, contentId: input.contentId, result, researchedAt });
    if (stamped.warning) warn(stamped.warning);
  }
  return result;
}

async function knowledgeClaims(
  accountId: string,
  topic: string,
  keyword: string | null,
  warn: (m: string) => void,
): Promise<{ claims: ResearchClaim[]; searched: boolean }> {
  try {
    const step = await researchKnowledge({ accountId, topic, keyword });
    step.warnings.forEach(warn);
    return { claims: step.claims, searched: true };
  } catch (err) {
    if (!isStepFailure(err)) throw err;
    warn(`the knowledge bases could not be searched (${reasonOf(err)}); the run goes on without knowledge-base claims`);
    return { claims: [], searched: false };
  }
}

interface Retrieved {
  kbClaims: ResearchClaim[];
  webClaims: ResearchClaim[];
  sources: ResearchSource[];
}

/**
 * The rule of re-runs: a part the run retrieved again replaces the stored one; a part it could not retrieve (the web
 * search did not run — cap, no key, failure — or the knowledge bases could not be searched) is kept from the
 * research stored before, and a warning says so. A first run has nothing stored and keeps nothing.
 */
async function keepUnretrieved(input: KeptInput, retrieved: Retrieved, warn: (m: string) => void): Promise<Retrieved> {
  if (!input.web && !input.knowledge) return retrieved;
  const kept = await researchKept(input);
  if (!kept) return retrieved;
  const out = { ...retrieved };
  if (input.web && kept.webClaims.length + kept.sources.length > 0) {
    out.webClaims = kept.webClaims;
    out.sources = kept.sources;
    warn(
      `the web search did not run: ${count(kept.webClaims.length, 'web claim')} and ${count(kept.sources.length, 'source')} of the research of ${kept.researchedAt} are kept`,
    );
  }
  if (input.knowledge && kept.kbClaims.length > 0) {
    out.kbClaims = kept.kbClaims;
    warn(
      `the knowledge bases could not be searched: ${count(kept.kbClaims.length, 'knowledge-base claim')} of the research of ${kept.researchedAt} are kept`,
    );
  }
  return out;
}

const count = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}s`}`;

async function webSearch(accountId: string, query: string, warn: (m: string) => void): Promise<ResearchSerp | null> {
  try {
    const step = await researchSearch({ accountId, query });
    step.warnings.forEach(warn);
    return step.serp;
  } catch (err) {
    if (!isStepFailure(err)) throw err;
    warn(`web search failed (${reasonOf(err)}): serp is null and no web page was read`);
    return null;
  }
}

/** One page in its own activity (retried on its own); its time is cut to what the run's budget has left. */
async function readPage(input: Parameters<Activities['researchPage']>[0], deadline: number): Promise<PageOutcome> {
  const left = deadline - Date.now();
  if (left < MIN_STEP_MS) return { status: 'gap', url: input.url, gap: `${input.url}: not read, the run's 300-second budget was used up` };
  const { researchPage } = proxyActivities<Activities>(budgeted(left, PAGE_START_TO_CLOSE_MS, PAGE_SCHEDULE_TO_CLOSE_MS));
  try {
    return await researchPage(input);
  } catch (err) {
    if (!isStepFailure(err)) throw err;
    return { status: 'gap', url: input.url, gap: `${input.url}: not read (${reasonOf(err)})` };
  }
}

async function indexPage(accountId: string, page: Extract<PageOutcome, { status: 'read' }>, deadline: number): Promise<IndexPageOutcome> {
  const left = deadline - Date.now();
  if (left < MIN_STEP_MS)
    return { indexed: false, already_indexed: false, warning: `${page.url}: not indexed, the run's 300-second budget was used up` };
  const { indexResearchPage } = proxyLocalActivities<Activities>(localBudgeted(left, INDEX_START_TO_CLOSE_MS, INDEX_SCHEDULE_TO_CLOSE_MS));
  try {
    return await indexResearchPage({
      accountId,
      url: page.url,
      title: page.title,
      textHash: page.textHash,
      quotes: page.claims.map((c) => c.quote),
    });
  } catch (err) {
    if (!isStepFailure(err)) throw err;
    return {
      indexed: false,
      already_indexed: false,
      warning: `${page.url}: not indexed into the research knowledge base (${reasonOf(err)})`,
    };
  }
}

/** Knowledge-base claims first (the run's order); one whose quote a web claim also carries is kept as the web claim. */
function mergeClaims(kb: ResearchClaim[], web: ResearchClaim[]): ResearchClaim[] {
  const key = (c: ResearchClaim) => c.quote.replace(/\s+/g, ' ').trim();
  const seen = new Set(web.map(key));
  const merged: ResearchClaim[] = [];
  for (const claim of kb) {
    if (seen.has(key(claim))) continue;
    seen.add(key(claim));
    merged.push(claim);
  }
  return [...merged, ...web];
}

/** Activity options whose timeouts never pass the time `left` before the step's deadline. */
function budgeted(left: number, startToClose: number, scheduleToClose: number): ActivityOptions {
  return {
    startToCloseTimeout: Math.min(startToClose, left),
    scheduleToCloseTimeout: Math.min(scheduleToClose, left),
    heartbeatTimeout: '10 seconds',
    retry,
  };
}

/** The same for a local activity (no heartbeat: the SDK keeps the workflow task alive while one runs long). */
function localBudgeted(left: number, startToClose: number, scheduleToClose: number): LocalActivityOptions {
  return { startToCloseTimeout: Math.min(startToClose, left), scheduleToCloseTimeout: Math.min(scheduleToClose, left), retry };
}
