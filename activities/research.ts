import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { ApiError } from '../src/http/errors';
import { ProviderError } from '../src/providers/errors';
import { keptStep } from '../src/research/kept';
import { PageTextCache } from '../src/research/pageTexts';
import { artifactStep, indexStep, knowledgeStep, pageStep, readSubject, searchStep, stampStep } from '../src/research/steps';
import type {
  ArtifactInput, IndexPageInput, IndexPageOutcome, KeptInput, KeptResearch, KnowledgeStep, PageInput, PageOutcome, ResearchSubject, SearchStep, StampInput,
} from '../workflows/researchTypes';
import type { ActivityDeps } from './deps';

const HEARTBEAT_EVERY_MS = 2_000;

/**
 * A provider's coded error as a Temporal failure: retryable ones (5xx, 429, timeouts) are retried by Temporal,
 * the rest fail at once (the workflow turns a failed page into a gap). A coded ApiError (an item gone) fails at
 * once with its status; a Postgres data error (text it cannot store, e.g. a NUL character) repeats itself, so it
 * fails at once too. Anything else is retried.
 */
function asFailure(err: unknown): unknown {
  if (err instanceof ProviderError) {
    return ApplicationFailure.create({
      type: err.code, message: err.message, nonRetryable: !err.retryable,
      ...(err.retryAfterSeconds ? { nextRetryDelay: `${err.retryAfterSeconds} seconds` } : {}),
    });
  }
  if (err instanceof ApiError) return ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: err.status < 500, details: [{ status: err.status }] });
  const pgCode = (err as { code?: unknown })?.code;
  if (typeof pgCode === 'string' && /^22[0-9A-Z]{3}$/.test(pgCode)) {
    return ApplicationFailure.create({ type: 'research_text_unstorable', message: 'the text could not be stored (invalid characters)', nonRetryable: true });
  }
  return err;
}

/** Runs `work` with the activity's cancellation signal, heartbeating while it runs (fetches and model calls wait long). */
async function heartbeating<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  // Local activities have no heartbeat: the SDK keeps their workflow task alive instead.
  const beat = () => { if (!ctx.info.isLocal) ctx.heartbeat(); };
  beat();
  const timer = setInterval(beat, HEARTBEAT_EVERY_MS);
  try {
    return await work(ctx.cancellationSignal);
  } catch (err) {
    throw asFailure(err);
  } finally {
    clearInterval(timer);
  }
}

async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asFailure(err);
  }
}

/** Side effects of the `research` workflow, one activity per step (src/research/steps.ts holds the rules). */
export function createResearchActivities(deps: ActivityDeps) {
  const texts = new PageTextCache();
  return {
    async researchSubject(input: { accountId: string; contentId: string | null; topic: string; keyword: string | null }): Promise<ResearchSubject> {
      return mapped(() => readSubject(deps, input));
    },

    async researchKnowledge(input: { accountId: string; topic: string; keyword: string | null }): Promise<KnowledgeStep> {
      return heartbeating((signal) => knowledgeStep(deps, input, signal));
    },

    async researchSearch(input: { accountId: string; query: string }): Promise<SearchStep> {
      const attempt = Context.current().info.attempt;
      return heartbeating((signal) => searchStep(deps, input, attempt, signal));
    },

    async researchPage(input: PageInput): Promise<PageOutcome> {
      return heartbeating((signal) => pageStep(deps, texts, input, signal));
    },

    async indexResearchPage(input: IndexPageInput): Promise<IndexPageOutcome> {
      return heartbeating((signal) => indexStep(deps, texts, input, signal));
    },

    async researchKept(input: KeptInput): Promise<KeptResearch | null> {
      return mapped(() => keptStep(deps, input));
    },

    async writeResearchArtifact(input: ArtifactInput): Promise<{ knowledgeBaseId: string; artifactId: string; created: boolean }> {
      return mapped(() => artifactStep(deps, input));
    },

    async stampContentResearch(input: StampInput): Promise<{ warning: string | null }> {
      return mapped(() => stampStep(deps, input));
    },
  };
}
