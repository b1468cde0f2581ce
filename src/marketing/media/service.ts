import { createHash } from 'node:crypto';
import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import type { Page } from '../../http/pagination';
import { getContent } from '../content/service';
import { imageNotAttached, fieldError, mediaAssetNotFound, mediaFileNotFound } from './errors';
import { newPublicToken, storedFilename } from './files';
import { inspectImage } from './image';
import * as store from './store';
import type { MediaAssetRow, MediaFile, MediaFilter } from './store';
import { CONTENT_IMAGE_TAG, contentTag, MAX_TAGS, mergeTags } from './tags';

export type { MediaAssetRow, MediaFile };

export interface ImageUpload {
  bytes: Buffer;
  filename: string;
  altText: string | null;
  placement: string | null;
}

export interface MediaChanges {
  tags?: string[];
  removeTags?: string[];
  altText?: string | null;
}

const isForeignKeyViolation = (err: unknown) => (err as { code?: string })?.code === '23503';

/**
 * Decodes the upload (type and size from the pixels, not the name), stores it in the account's media library tagged
 * `content_image` and `content:<item id>`, and attaches it to the item, in one transaction.
 */
export async function uploadContentImage(db: Knex, accountId: string, contentId: string, upload: ImageUpload): Promise<MediaAssetRow> {
  await getContent(db, accountId, contentId);
  const image = await inspectImage(upload.bytes);
  try {
    return await db.transaction(async (trx) => {
      const asset = await store.insertAsset(trx, accountId, {
        filename: storedFilename(upload.filename, image.extension),
        mime_type: image.mimeType,
        width: image.width,
        height: image.height,
        byte_size: upload.bytes.length,
        sha256: createHash('sha256').update(upload.bytes).digest('hex'),
        public_token: newPublicToken(),
        tags: [CONTENT_IMAGE_TAG, contentTag(contentId)],
        alt_text: upload.altText,
        data: upload.bytes,
      });
      await store.attachImage(trx, accountId, contentId, asset.id, upload.placement);
      return asset;
    });
  } catch (err) {
    // The item was deleted between the check and the insert: answer as for a missing item.
    if (isForeignKeyViolation(err)) await getContent(db, accountId, contentId);
    throw err;
  }
}

/** Removes an image from an item; the asset stays in the library with its tags. */
export async function detachContentImage(db: Knex, accountId: string, contentId: string, assetId: string): Promise<void> {
  await getContent(db, accountId, contentId);
  if ((await store.detachImage(db, accountId, contentId, assetId)) === 0) throw imageNotAttached();
}

export async function listMedia(db: Knex, accountId: string, filter: MediaFilter, page: Page) {
  return store.listAssets(db, accountId, filter, page);
}

export async function getMedia(db: Knex, accountId: string, assetId: string): Promise<MediaAssetRow> {
  const asset = isUuid(assetId) ? await store.findAsset(db, accountId, assetId) : undefined;
  if (!asset) throw mediaAssetNotFound();
  return asset;
}

/** Adds and removes tags and sets the alt text; the asset keeps at most 50 tags. */
export async function updateMedia(db: Knex, accountId: string, assetId: string, changes: MediaChanges): Promise<MediaAssetRow> {
  if (!isUuid(assetId)) throw mediaAssetNotFound();
  return db.transaction(async (trx) => {
    const asset = await store.findAsset(trx, accountId, assetId, true);
    if (!asset) throw mediaAssetNotFound();
    const fields: { tags?: string[]; alt_text?: string | null } = {};
    if (changes.tags !== undefined || changes.removeTags !== undefined) {
      fields.tags = mergeTags(asset.tags, changes.tags ?? [], changes.removeTags ?? []);
      if (fields.tags.length > MAX_TAGS) throw fieldError('body.tags', `an asset carries at most ${MAX_TAGS} tags`);
    }
    if (changes.altText !== undefined) fields.alt_text = changes.altText;
    if (Object.keys(fields).length === 0) return asset;
    return store.updateAsset(trx, accountId, assetId, fields);
  });
}

/** The bytes behind a public media URL; an unknown token or a file name that does not match is 404. */
export async function publicFile(db: Knex, token: string, filename: string): Promise<MediaFile> {
  const file = await store.findPublicFile(db, token, filename);
  if (!file) throw mediaFileNotFound();
  return file;
}
