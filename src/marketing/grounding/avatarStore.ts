import { groundingStore, type GroundingRow } from './groundingStore';

export interface AvatarRow extends GroundingRow {
  attributes: Record<string, unknown>;
}

export type AvatarFields = Partial<Pick<AvatarRow, 'name' | 'description' | 'attributes'>>;

const avatars = groundingStore<AvatarRow, AvatarFields>({
  table: 'customer_avatars',
  jsonColumns: ['attributes'],
  refColumns: ['id', 'name'],
});

// A deleted avatar: content items that named it keep existing with `avatar_id` null (FK on delete set null).
export const {
  list: listAvatars,
  find: findAvatar,
  lockRef: lockAvatarRef,
  insert: insertAvatar,
  update: updateAvatar,
  delete: deleteAvatar,
} = avatars;
