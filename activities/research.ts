import { Context } from '@temporalio/activity';
import { ApiError } from '../src/http/errors';
import { keptStep } from '../src/research/kept';
import { PageTextCache } from '../src/research/pageTexts';
import { artifactStep, indexStep, knowledgeStep, pageStep, readSubject, searchStep, stampStep } from '../src/research/steps';
import type {
  ArtifactInput,
  IndexPageInput,
  IndexPageOutcome,
  KeptInput,
  KeptResearch,
  KnowledgeStep,
  PageInput,
  PageOutcome,
  ResearchSubject,
  SearchStep,
  StampInput,
} from '../workflows/research.contract';
import type { ActivityDeps } from './deps';
import { whileHeartbeating } from './heartbeat';

const HEARTBEAT_EVERY_MS = 2_000;

/**
 * A Postgres data error (text it cannot store, e.g. a NUL character) repeats itself: it becomes a coded error, which
 * the worker's failure mapping fails at once. Everything else is left to that mapping (src/temporal/activityFailure.ts).
 */
async function storing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const pgCode = (err as { code?: unknown })?.code;
    if (typeof pgCode === 'string' && /^22[0-9A-Z]{3}$/.test(pgCode)) {
      throw new ApiError(422, 'research_text_unstorable', 'the text could not be stored (invalid characters)');
    }
    throw err;
  }
}

/** Runs `work` with the activity's cancellation signal, heartbeating while it runs (fetches and model calls wait long). */
const heartbeating = <T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> =>
  whileHeartbeating((signal) => storing(() => work(signal)), HEARTBEAT_EVERY_MS);

/** Side effects of the `research` workflow, one activity per step (src/research/steps.ts holds the rules). */
export function createResearchActivities(deps: ActivityDeps) {
  const texts = new PageTextCache();
  return {
    async researchSubject(input: {
      accountId: string;
      contentId: string | null;
      topic: string;
      keyword: string | null;
    }): Promise<ResearchSubject> {
      return storing(() => readSubject(deps, input));
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
      return storing(() => keptStep(deps, input));
    },

    async writeResearchArtifact(input: ArtifactInput): Promise<{ knowledgeBaseId: string; artifactId: string; created: boolean }> {
      return storing(() => artifactStep(deps, input));
    },

    async stampContentResearch(input: StampInput): Promise<{ warning: string | null }> {
      return storing(() => stampStep(deps, input));
    },
  };
}
