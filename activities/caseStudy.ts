import { ApiError } from '../src/http/errors';
import { draftCaseStudy } from '../src/marketing/caseStudy/draft';
import { gatherSources } from '../src/marketing/caseStudy/gather';
import { saveCaseStudy } from '../src/marketing/caseStudy/save';
import { createChatClient } from '../src/clients/providers/chatCompletions';
import type { CaseStudyDraft, CaseStudyInput, CaseStudySources, GatheredSources, SaveRequest } from '../workflows/caseStudy.contract';
import type { ActivityDeps } from './deps';
import { whileHeartbeating } from './heartbeat';

/**
 * Side effects of the `caseStudy` workflow: the sources read and checked again inside the run (a refusal is answered,
 * not thrown, so the workflow fails the run with its code), the draft (the chat model; a model that fails or answers
 * unusably gives way to the template, with a warning, so the run completes), and the save.
 */
export function createCaseStudyActivities(deps: ActivityDeps) {
  return {
    gatherCaseStudy: async (input: CaseStudyInput): Promise<GatheredSources> => {
      try {
        const { sources, journeyId } = await gatherSources(deps.db, input.accountId, input);
        return { status: 'ready', sources, journeyId };
      } catch (err) {
        if (err instanceof ApiError && err.status < 500) return { status: 'refused', code: err.code, message: err.message };
        throw err;
      }
    },
    writeCaseStudyDraft: ({ sources }: { sources: CaseStudySources }): Promise<CaseStudyDraft> =>
      whileHeartbeating((signal) => draftCaseStudy(createChatClient(deps.config), sources, { signal })),
    saveCaseStudyDraft: (req: SaveRequest) => saveCaseStudy(deps.db, req),
  };
}
