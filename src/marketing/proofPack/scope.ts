import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import { contentNotFound } from '../content/errors';
import { findContent, type ContentRowWithNames } from '../content/store';
import { findAvatar } from '../grounding/service';
import { unknownAvatar } from './errors';
import { PROOF_KINDS, type PackScope, type ProofKind } from './types';

export interface PackFilter {
  /** The item the pack is for: its grid, avatar, stage and keyword/title narrow the pack. */
  contentId?: string;
  avatarId?: string;
  journeyStage?: string;
  kinds?: ProofKind[];
  q?: string;
  limit: number;
}

/** The account's item, or 404 `content_not_found` for a malformed, missing or foreign id. */
export async function packItem(db: Knex, accountId: string, contentId: string): Promise<ContentRowWithNames> {
  const item = isUuid(contentId) ? await findContent(db, accountId, contentId) : undefined;
  if (!item) throw contentNotFound();
  return item;
}

/**
 * What narrows the pack. The filters sent win over the item's own values; the item's grid, when it has one, is the
 * only grid read. `q` defaults to the item's target keyword, else its title.
 */
export async function packScope(db: Knex, accountId: string, filter: PackFilter, where: 'query' | 'body'): Promise<PackScope> {
  const item = filter.contentId === undefined ? undefined : await packItem(db, accountId, filter.contentId);
  const avatarId = filter.avatarId ?? item?.avatar_id ?? undefined;
  if (filter.avatarId && !(await findAvatar(db, accountId, filter.avatarId))) throw unknownAvatar(where);
  const keyword = item?.target_keyword ?? (item?.settings?.target_keyword as string | undefined) ?? item?.title;
  return {
    kinds: filter.kinds?.length ? PROOF_KINDS.filter((k) => filter.kinds!.includes(k)) : [...PROOF_KINDS],
    limit: filter.limit,
    gridId: item?.before_after_grid_id ?? undefined,
    avatarId,
    journeyStage: filter.journeyStage ?? item?.journey_stage ?? undefined,
    q: filter.q ?? (typeof keyword === 'string' && keyword.trim() ? keyword : undefined),
  };
}
