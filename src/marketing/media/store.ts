import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';

/** A media_assets row without its bytes (lists and updates never load them). */
export interface MediaAssetRow {
  id: string;
  account_id: string;
  filename: string;
  mime_type: string;
  width: number;
  height: number;
  byte_size: number;
  sha256: string;
  public_token: string;
  tags: string[];
  alt_text: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewMediaAsset = Omit<MediaAssetRow, 'id' | 'account_id' | 'created_at' | 'updated_at'> & { data: Buffer };

export interface MediaFile {
  filename: string;
  mime_type: string;
  sha256: string;
  data: Buffer;
}

export interface MediaFilter {
  tag?: string;
  contentId?: string;
}

const COLUMNS = [
  'id',
  'account_id',
  'filename',
  'mime_type',
  'width',
  'height',
  'byte_size',
  'sha256',
  'public_token',
  'tags',
  'alt_text',
  'created_at',
  'updated_at',
];

function filteredAssets(db: Knex, accountId: string, f: MediaFilter): Knex.QueryBuilder {
  const q = db('media_assets as m').where('m.account_id', accountId);
  if (f.tag !== undefined) q.whereRaw('m.tags @> ?::text[]', [[f.tag]]);
  if (f.contentId !== undefined) {
    q.whereExists((sub) =>
      sub
        .select(db.raw('1'))
        .from('content_item_images as i')
        .whereRaw('i.asset_id = m.id')
        .where({ 'i.account_id': accountId, 'i.content_id': f.contentId }),
    );
  }
  return q;
}

/** Newest first. */
export async function listAssets(db: Knex, accountId: string, filter: MediaFilter, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    filteredAssets(db, accountId, filter)
      .select(COLUMNS.map((c) => `m.${c}`))
      .orderBy([
        { column: 'm.created_at', order: 'desc' },
        { column: 'm.id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<MediaAssetRow[]>,
    filteredAssets(db, accountId, filter).count({ count: '*' }) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}

export async function findAsset(db: Knex, accountId: string, id: string, lock = false): Promise<MediaAssetRow | undefined> {
  const q = db('media_assets').where({ account_id: accountId, id }).first(COLUMNS);
  return lock ? q.forUpdate() : q;
}

export async function insertAsset(db: Knex, accountId: string, asset: NewMediaAsset): Promise<MediaAssetRow> {
  const [row] = await db('media_assets')
    .insert({ account_id: accountId, ...asset })
    .returning(COLUMNS);
  return row;
}

export async function updateAsset(
  db: Knex,
  accountId: string,
  id: string,
  fields: { tags?: string[]; alt_text?: string | null },
): Promise<MediaAssetRow> {
  const [row] = await db('media_assets')
    .where({ account_id: accountId, id })
    .update({ ...fields, updated_at: db.fn.now() })
    .returning(COLUMNS);
  return row;
}

/** Attaches an asset to a content item; attaching it again only updates the placement. */
export async function attachImage(
  db: Knex,
  accountId: string,
  contentId: string,
  assetId: string,
  placement: string | null,
): Promise<void> {
  await db('content_item_images')
    .insert({ account_id: accountId, content_id: contentId, asset_id: assetId, placement })
    .onConflict(['content_id', 'asset_id'])
    .merge(['placement']);
}

/** Number of attachments removed (0 or 1). */
export async function detachImage(db: Knex, accountId: string, contentId: string, assetId: string): Promise<number> {
  return db('content_item_images').where({ account_id: accountId, content_id: contentId, asset_id: assetId }).delete();
}

/**
 * The one lookup not scoped by account: the public file URL carries no credential but the token itself, which is
 * 256 random bits; the file name must match too.
 */
export async function findPublicFile(db: Knex, token: string, filename: string): Promise<MediaFile | undefined> {
  return db('media_assets').where({ public_token: token, filename }).first('filename', 'mime_type', 'sha256', 'data');
}

/** The bytes of the account's assets among `ids` (an image run's reference images); unknown ids are left out. */
export async function findAssetBytes(
  db: Knex,
  accountId: string,
  ids: string[],
): Promise<Array<{ id: string; mime_type: string; data: Buffer }>> {
  if (ids.length === 0) return [];
  return db('media_assets').where({ account_id: accountId }).whereIn('id', ids).select('id', 'mime_type', 'data');
}
