import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import { avatarNotFound } from './errors';
import type { ListQuery } from './listing';
import * as store from './avatarStore';
import type { AvatarFields, AvatarRow } from './avatarStore';

export type { AvatarRow };

export async function listAvatars(db: Knex, accountId: string, { search, page, limit }: ListQuery) {
  return store.listAvatars(db, accountId, search, { page, limit });
}

/** The avatar, or undefined when the id is malformed, missing or another account's. */
export async function findAvatar(db: Knex, accountId: string, id: string): Promise<AvatarRow | undefined> {
  return isUuid(id) ? store.findAvatar(db, accountId, id) : undefined;
}

/** The avatar; 404 `avatar_not_found` when the id is malformed, missing or another account's. */
export async function getAvatar(db: Knex, accountId: string, id: string): Promise<AvatarRow> {
  const row = await findAvatar(db, accountId, id);
  if (!row) throw avatarNotFound();
  return row;
}

/** `{ id, name }` of an avatar a write references, locked for the caller's transaction; undefined when not in the account. */
export async function avatarRef(db: Knex, accountId: string, id: string) {
  return isUuid(id) ? store.lockAvatarRef(db, accountId, id) : undefined;
}

export async function createAvatar(db: Knex, accountId: string, fields: AvatarFields & { name: string }): Promise<AvatarRow> {
  return store.insertAvatar(db, accountId, { attributes: {}, ...fields });
}

/** Partial update: absent fields stay; `attributes`, when sent, replaces the stored object. */
export async function updateAvatar(db: Knex, accountId: string, id: string, fields: AvatarFields): Promise<AvatarRow> {
  if (Object.keys(fields).length === 0) return getAvatar(db, accountId, id);
  const row = isUuid(id) ? await store.updateAvatar(db, accountId, id, fields) : undefined;
  if (!row) throw avatarNotFound();
  return row;
}

export async function deleteAvatar(db: Knex, accountId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await store.deleteAvatar(db, accountId, id))) throw avatarNotFound();
}
