import type { PublishDeployTarget } from '../../../workflows/contentPublish.contract';
import { resolveSchedule } from '../content/schedule';

/** What decides whether a content-publish workflow holds an item's date (a row, or a new item's defaults). */
export interface HoldFacts {
  scheduled_publish_at: Date | null;
  cms_link: { project_id: string; collection_id: string; item_id?: string | null } | null;
  deploy_target: string;
  schedule_executes: boolean;
}

/** The schedule members of a write (create, PUT, PATCH, the schedule sub-resource). */
export interface HoldInput {
  scheduled_publish_at?: string | null;
  cancel_scheduled_publish?: boolean;
  cms_link?: { project_id: string; collection_id: string; item_id?: string | null } | null;
  deploy_target?: string;
}

/**
 * What the write asks of the item's workflow:
 * - `arm`: update-with-start `reschedule` (start it, or move its date / target / project);
 * - `release`: the `cancel` Update (the date is cleared, or stays recorded only);
 * - `keep`: no Temporal call.
 */
export type HoldChange =
  | { kind: 'arm'; at: Date; projectId: string; collectionId: string; itemId: string | null; deployTarget: PublishDeployTarget }
  | { kind: 'release' }
  | { kind: 'keep' };

export interface HoldOfWrite {
  /** The scheduled_publish_at column the write sets: undefined leaves it (resolveSchedule). */
  scheduledPublishAt: Date | null | undefined;
  change: HoldChange;
  /** content_items.schedule_executes after the write. */
  executes: boolean;
}

/**
 * The hold after a write (PLAN section 1). A date is held when it is in the future, the item is linked and its
 * deploy_target is not `none`. A held date is (re)armed when the write changes the date, the target or the linked
 * project, or when nothing held it yet; it is released only when the write changes one of those (a held date that
 * merely passed is the workflow's to publish, not a save's to cancel). Throws resolveSchedule's refusals
 * (409 not_linked, 400 past or contradictory).
 */
export function holdOfWrite(stored: HoldFacts, input: HoldInput, now: Date): HoldOfWrite {
  const scheduledPublishAt = resolveSchedule(stored, input, now);
  const at = scheduledPublishAt === undefined ? stored.scheduled_publish_at : scheduledPublishAt;
  const link = input.cms_link !== undefined ? input.cms_link : stored.cms_link;
  const deployTarget = input.deploy_target ?? stored.deploy_target;
  const touched =
    scheduledPublishAt !== undefined ||
    deployTarget !== stored.deploy_target ||
    (link?.project_id ?? null) !== (stored.cms_link?.project_id ?? null);

  if (at !== null && at.getTime() > now.getTime() && link && deployTarget !== 'none') {
    if (stored.schedule_executes && !touched) return { scheduledPublishAt, change: { kind: 'keep' }, executes: true };
    const itemId =
      link.item_id !== undefined ? link.item_id : sameCollection(link, stored.cms_link) ? (stored.cms_link?.item_id ?? null) : null;
    return {
      scheduledPublishAt,
      change: {
        kind: 'arm',
        at,
        projectId: link.project_id,
        collectionId: link.collection_id,
        itemId,
        deployTarget: deployTarget as PublishDeployTarget,
      },
      executes: true,
    };
  }
  if (stored.schedule_executes && touched) return { scheduledPublishAt, change: { kind: 'release' }, executes: false };
  return { scheduledPublishAt, change: { kind: 'keep' }, executes: stored.schedule_executes };
}

export function sameCollection(
  a: { project_id: string; collection_id: string } | null | undefined,
  b: { project_id: string; collection_id: string } | null | undefined,
): boolean {
  return !!a && !!b && a.project_id === b.project_id && a.collection_id === b.collection_id;
}
