import type { Knex } from '../db/knex';
import type { AppDeps } from '../deps';
import { getArtifact, type Artifact } from '../knowledge/service';
import { invalidReference } from '../marketing/content/errors';
import { getContent, type ContentItem } from '../marketing/content/service';
import { findAvatar } from '../marketing/grounding/service';
import { findOwnProject } from '../projects/service';
import { runJobRequest, type JobRequest } from '../jobs/start/kit';
import type { StartAndWaitOutcome } from '../temporal/startAndWait';
import { DEFAULT_MAX_SOURCES, researchContract, type ResearchInput, type ResearchResult } from '../../workflows/research.contract';

type RunDeps = Pick<AppDeps, 'db' | 'temporal' | 'metrics' | 'logger'>;

export interface RunRequest extends JobRequest {
  accountId: string;
}

/** Research of a content item: its title and target keyword (read again by the run's first step). */
export async function researchContent(
  deps: RunDeps,
  request: RunRequest & { contentId: string; maxSources?: number },
): Promise<StartAndWaitOutcome<ResearchResult>> {
  const item = await getContent(deps.db, request.accountId, request.contentId);
  const maxSources = request.maxSources ?? DEFAULT_MAX_SOURCES;
  return run(
    deps,
    request,
    {
      accountId: request.accountId,
      contentId: item.id,
      topic: item.title,
      keyword: item.target_keyword,
      maxSources,
      requestId: request.requestId,
    },
    { content_id: item.id, max_sources: maxSources },
  );
}

/** Research of a topic without an item: nothing is stamped. The avatar and the project, when given, must be the account's. */
export async function researchTopic(
  deps: RunDeps,
  request: RunRequest & { topic: string; keyword: string | null; avatarId: string | null; projectId: string | null; maxSources?: number },
): Promise<StartAndWaitOutcome<ResearchResult>> {
  if (request.avatarId && !(await findAvatar(deps.db, request.accountId, request.avatarId)))
    throw invalidReference('avatar_id', 'customer avatar');
  if (request.projectId && !(await findOwnProject(deps.db, request.accountId, request.projectId)))
    throw invalidReference('project_id', 'website project');
  const maxSources = request.maxSources ?? DEFAULT_MAX_SOURCES;
  return run(
    deps,
    request,
    {
      accountId: request.accountId,
      contentId: null,
      topic: request.topic,
      keyword: request.keyword,
      maxSources,
      avatarId: request.avatarId,
      projectId: request.projectId,
      requestId: request.requestId,
    },
    {
      topic: request.topic,
      keyword: request.keyword,
      avatar_id: request.avatarId,
      project_id: request.projectId,
      max_sources: maxSources,
    },
  );
}

/**
 * Starts the run and waits for it as the request's wait says (RESEARCH_WAIT_SECONDS at most). A key is one request
 * of one account (Stripe's rule): with an Idempotency-Key the workflow id is `research:<account>:<key>`, so a retry
 * attaches to the same run (running or finished) instead of starting another, on whichever item or route it is sent;
 * another request under the key (route, item or topic, body with its tags, metadata and callback_url) is 409 and runs nothing.
 */
function run(
  deps: RunDeps,
  request: RunRequest,
  input: ResearchInput,
  fingerprint: Record<string, unknown>,
): Promise<StartAndWaitOutcome<ResearchResult>> {
  return runJobRequest(deps, request, {
    contract: researchContract,
    accountId: request.accountId,
    args: [input],
    fingerprint,
    searchAttributes: { ContentId: input.contentId ?? undefined, ProjectId: input.projectId ?? undefined },
  });
}

export interface StoredResearch {
  research: Record<string, unknown> | null;
  artifact: Artifact | null;
}

/** The item's `settings.research` and the artifact it points at; each null before the first run. */
export async function getResearch(db: Knex, accountId: string, contentId: string): Promise<StoredResearch> {
  const item: ContentItem = await getContent(db, accountId, contentId);
  const stamp = item.settings.research;
  const research = stamp && typeof stamp === 'object' && !Array.isArray(stamp) ? (stamp as Record<string, unknown>) : null;
  const artifactId = research?.artifact_id;
  const artifact = typeof artifactId === 'string' ? ((await getArtifact(db, accountId, artifactId)) ?? null) : null;
  return { research, artifact };
}
