import type { ChatClient } from '../../clients/providers/chatCompletions';
import { isProviderError } from '../../clients/providers/errors';
import { modelDraft } from './modelDraft';
import type { CaseStudyDraft, CaseStudySources } from '../../../workflows/caseStudy.contract';
import { templateDraft } from './template';

/**
 * A case-study draft: the model writes the prose when a chat client is configured; without one, or when the model
 * fails or answers unusably, the template does (with a warning), so a draft is always produced. Cancellation (an
 * aborted `signal`) is not a failure to fall back from: it is rethrown.
 */
export async function draftCaseStudy(
  chat: ChatClient | null,
  sources: CaseStudySources,
  options: { signal?: AbortSignal } = {},
): Promise<CaseStudyDraft> {
  if (!chat) return templateDraft(sources);
  try {
    return await modelDraft(chat, sources, options);
  } catch (err) {
    if (options.signal?.aborted || !isProviderError(err)) throw err;
    return templateDraft(sources, [`the model could not write the case study (${err.message}); the template wrote it`]);
  }
}
