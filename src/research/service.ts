import type { Knex } from '../db/knex';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { requestHash } from '../http/idempotency';
import { getArtifact, type Artifact } from '../knowledge/service';
import { invalidReference } from '../marketing/content/errors';
import { getContent, type ContentItem } from '../marketing/content/service';
import { findAvatar } from '../marketing/grounding/service';
import { findOwnProject } from '../projects/service';
import { jobOptionsHashed, type JobStartOptions, type StartJobInput } from '../temporal/jobs';
import { describeRun } from '../temporal/jobView';
import { startAndWait, type StartAndWaitOutcome } from '../temporal/startAndWait';
import { DEFAULT_MAX_SOURCES, researchContract, type ResearchInput, type ResearchResult } from '../../workflows/research.contract';

type RunDeps = Pick<AppDeps, 'config' | 'db' | 'temporal' | 'metrics' | 'logger'>;

export interface RunRequest {
  accountId: string;
  requestId: string;
  /** The validated Idempotency-Key header; absent: a run of its own. */
  idempotencyKey?: string;
  /** The route's method and path template (`POST /api/marketing/content/{id}/research`): part of the request's fingerprint. */
  route: string;
  /** The request's `tags`, `metadata` and `callback_url` (part of its fingerprint too). */
  options?: JobStartOptions;
}

export const keyReused = () =>
  new ApiError(
    409,
    'idempotency_key_reused',
    'this Idempotency-Key was already used with another request (another route, item or body); send a new key',
  );

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
    { route: request.route, content_id: item.id, max_sources: maxSources },
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
      route: request.route,
      topic: request.topic,
      keyword: request.keyword,
      avatar_id: request.avatarId,
      project_id: request.projectId,
      max_sources: maxSources,
    },
  );
}

/**
 * Starts the run and waits for it up to RESEARCH_WAIT_SECONDS. A key is one request of one account (Stripe's rule):
 * with an Idempotency-Key the workflow id is `research:<account>:<key>`, so a retry attaches to the same run (running
 * or finished) instead of starting another, on whichever item or route it is sent. The run's memo keeps a hash of
 * the request (route, item or topic, body with its tags, metadata and callback_url), and a request whose hash differs is 409 and runs nothing.
 */
async function run(
  deps: RunDeps,
  request: RunRequest,
  input: ResearchInput,
  hashed: Record<string, unknown>,
): Promise<StartAndWaitOutcome<ResearchResult>> {
  const hash = requestHash({ ...hashed, ...jobOptionsHashed(request.options) });
  const start: StartJobInput<[ResearchInput]> = {
    accountId: request.accountId,
    args: [input],
    requestId: request.requestId,
    key: request.idempotencyKey,
    searchAttributes: { ContentId: input.contentId ?? undefined, ProjectId: input.projectId ?? undefined },
    memo: { requestHash: hash },
    options: request.options,
  };
  return startAndWait(deps, researchContract, start, {
    waitSeconds: deps.config.RESEARCH_WAIT_SECONDS,
    afterStart: start.key ? (id) => refuseOtherRequest(deps, id, hash) : undefined,
  });
}

/** A retry attached to the run its key names: refused when that run was started by another request (its memo's hash). */
export async function refuseOtherRequest(deps: Pick<AppDeps, 'temporal'>, id: string, hash: string): Promise<void> {
  const stored = (await describeRun(deps.temporal, id))?.memo?.requestHash;
  if (typeof stored === 'string' && stored !== hash) throw keyReused();
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
