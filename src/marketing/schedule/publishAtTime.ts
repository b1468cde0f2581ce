import { ApiError } from '../../http/errors';
import { listProjectDeployments, revalidateDeployment, type Environment } from '../../projects/deployments/service';
import { findOwnProject, type ProjectRow } from '../../projects/service';
import type { SitePlatformDeps } from '../../sitePlatform/connections/deps';
import { contentSourceOf } from '../../sitePlatform/operations/contentSource';
import { withTargetLock } from '../../sitePlatform/operations/locks';
import type { PublishDeployTarget } from '../../../workflows/contentPublish.contract';
import { getContent } from '../content/service';
import { publishSiteEntry } from '../publishToSite/entry';
import type { Revalidate } from './revalidationBatch';
import { findScheduleRow, stampScheduledPublished, type ScheduleRow } from './publishStore';

/** The site platform's deps, and how a deployment is revalidated (the worker coalesces them: revalidationBatch.ts). */
export type PublishDeps = SitePlatformDeps & { revalidate?: Revalidate };

export interface ScheduledPublishRequest {
  accountId: string;
  contentId: string;
  /** The instant the workflow holds (ISO). */
  at: string;
  deployTarget: PublishDeployTarget;
  /** The project the workflow holds (read beside the row; the row's own link decides). */
  projectId: string;
}

/** The row's own armed schedule, when it holds one other than the workflow's: the workflow adopts it. */
export interface ArmedSchedule {
  at: string;
  deployTarget: PublishDeployTarget;
  projectId: string;
}

export type ScheduledPublishOutcome =
  | { outcome: 'published'; publishedAt: string; warnings: string[] }
  | { outcome: 'superseded'; armed: ArmedSchedule | null }
  | { outcome: 'gone' };

/** The first step's answer: the outcome, or `platform` when the item publishes to the platform CMS (the second step). */
export type FirstStepOutcome = ScheduledPublishOutcome | { outcome: 'platform' };

const DEPLOY_TARGETS: readonly string[] = ['production', 'staging', 'dev', 'publish'];

/** Cache tags a service-hosted site re-renders an item's pages by. */
export const contentCacheTags = (contentId: string) => ['content', `content:${contentId}`];

const notLinked = () => new ApiError(409, 'not_linked', 'the item lost its site link before its scheduled time, so nothing was published');
const siteMissing = (projectId: string) =>
  new ApiError(412, 'site_platform_not_connected', `project ${projectId} uses the platform CMS but names no site to publish to`);
// Another publish of the same item holds its lock: worth another attempt (a 409 would not be retried).
const busy = () => new ApiError(503, 'content_publish_busy', 'another publish of this item was running; tried again');

function heldBy(row: ScheduleRow, at: Date): boolean {
  return row.schedule_executes && row.scheduled_publish_at?.getTime() === at.getTime();
}

/** What the row holds instead: its own armed date (and target, project), or null when it holds none. */
function armedOf(row: ScheduleRow): ArmedSchedule | null {
  if (!row.schedule_executes || !row.scheduled_publish_at || !row.cms_link || !DEPLOY_TARGETS.includes(row.deploy_target)) return null;
  return {
    at: row.scheduled_publish_at.toISOString(),
    deployTarget: row.deploy_target as PublishDeployTarget,
    projectId: row.cms_link.project_id,
  };
}

/**
 * The publish at the scheduled time (the content-publish workflow's activity), with `actor` in every audit row:
 * - the row must still hold this schedule (date and armed), else `superseded` (with the row's own armed date, if
 *   any) or `gone` (no such item in the account);
 * - platform CMS as content source: the entry is written with the current fields, live, and published through the
 *   operation runner, then the row is stamped published with its site_entry_url;
 * - native source: stamped published, then the service-hosted project's deployment for the deploy target is asked
 *   to revalidate (a failed revalidation is a warning).
 * The stamp is conditional on the row still holding the date. Errors are thrown for the workflow's retry; the failure
 * stamp is written only once retries are spent (failScheduled.ts).
 */
export async function publishAtTime(
  deps: PublishDeps,
  req: ScheduledPublishRequest,
  actor: () => Promise<string>,
): Promise<ScheduledPublishOutcome>;
/** With no actor (the first step, a local activity): everything but the platform publish, which is answered `platform` instead. */
export async function publishAtTime(
  deps: PublishDeps,
  req: ScheduledPublishRequest,
  actor: (() => Promise<string>) | null,
): Promise<FirstStepOutcome>;
export async function publishAtTime(
  deps: PublishDeps,
  req: ScheduledPublishRequest,
  actor: (() => Promise<string>) | null,
): Promise<FirstStepOutcome> {
  const at = new Date(req.at);
  const [row, heldProject] = await Promise.all([
    findScheduleRow(deps.db, req.accountId, req.contentId),
    findOwnProject(deps.db, req.accountId, req.projectId),
  ]);
  if (!row) return { outcome: 'gone' };
  if (!heldBy(row, at)) return { outcome: 'superseded', armed: armedOf(row) };
  const link = row.cms_link;
  if (!link) throw notLinked();
  const project = link.project_id === req.projectId ? heldProject : await findOwnProject(deps.db, req.accountId, link.project_id);

  if (project?.content_source === 'site_platform') {
    if (!actor) return { outcome: 'platform' };
    const source = await contentSourceOf(deps.db, req.accountId, project.id);
    if (!source.site_id) throw siteMissing(project.id);
    return publishToPlatform(deps, req, source.site_id, actor);
  }
  return publishNative(deps, req, project);
}

async function publishToPlatform(
  deps: SitePlatformDeps,
  req: ScheduledPublishRequest,
  siteId: string,
  actor: () => Promise<string>,
): Promise<ScheduledPublishOutcome> {
  const at = new Date(req.at);
  const publish = async (): Promise<ScheduledPublishOutcome> => {
    // Read again under the lock: a publish-to-site may have run since the first read.
    const row = await findScheduleRow(deps.db, req.accountId, req.contentId);
    if (!row) return { outcome: 'gone' };
    if (!heldBy(row, at)) return { outcome: 'superseded', armed: armedOf(row) };
    const item = await getContent(deps.db, req.accountId, req.contentId);
    if (!item.cms_link) throw notLinked();
    const entry = await publishSiteEntry(deps, { accountId: req.accountId, item, link: item.cms_link, siteId, actor });
    const publishedAt = await stampScheduledPublished(deps.db, req.accountId, req.contentId, at, {
      cms_link: JSON.stringify({ ...item.cms_link, item_id: entry.itemId }),
      site_entry_url: entry.url,
    });
    return publishedAt ? { outcome: 'published', publishedAt: publishedAt.toISOString(), warnings: [] } : afterMissedStamp(deps, req);
  };
  try {
    return await withTargetLock(deps.db, req.accountId, `content_publish:${req.contentId}`, publish);
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'write_locked' || err.code === 'write_unconfirmed')) throw busy();
    throw err;
  }
}

async function publishNative(
  deps: SitePlatformDeps,
  req: ScheduledPublishRequest,
  project: ProjectRow | undefined,
): Promise<ScheduledPublishOutcome> {
  const publishedAt = await stampScheduledPublished(deps.db, req.accountId, req.contentId, new Date(req.at));
  if (!publishedAt) return afterMissedStamp(deps, req);
  const warnings = project?.kind === 'service_hosted' ? await revalidate(deps, req, project.id) : [];
  return { outcome: 'published', publishedAt: publishedAt.toISOString(), warnings };
}

/** The row changed between the check and the stamp (deleted, or its schedule moved): nothing was stamped. */
async function afterMissedStamp(deps: SitePlatformDeps, req: ScheduledPublishRequest): Promise<ScheduledPublishOutcome> {
  const row = await findScheduleRow(deps.db, req.accountId, req.contentId);
  return row ? { outcome: 'superseded', armed: armedOf(row) } : { outcome: 'gone' };
}

/** Revalidates the service-hosted project's deployment for the deploy target; answers warnings, never throws for the site. */
async function revalidate(deps: PublishDeps, req: ScheduledPublishRequest, projectId: string): Promise<string[]> {
  const environment: Environment = req.deployTarget === 'publish' ? 'production' : req.deployTarget;
  const deployment = (await listProjectDeployments(deps.db, req.accountId, projectId)).find((d) => d.environment === environment);
  if (!deployment) return [`no ${environment} deployment to revalidate`];
  const outcome = await (deps.revalidate ?? ((d, tags) => revalidateDeployment(deps, d, tags)))(
    deployment,
    contentCacheTags(req.contentId),
  );
  return outcome === 'revalidated' ? [] : [`revalidation of the ${environment} deployment: ${outcome}`];
}
