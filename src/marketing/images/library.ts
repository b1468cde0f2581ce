import { createHash } from 'node:crypto';
import type { Knex } from '../../db/knex';
import type { ImageSlot } from '../../../workflows/contentImages.contract';
import { newPublicToken } from '../media/files';
import { attachImage, insertAsset, type MediaAssetRow } from '../media/store';
import { CONTENT_IMAGE_TAG, contentTag } from '../media/tags';

export interface LibraryImage {
  accountId: string;
  contentId: string;
  slot: ImageSlot;
  bytes: Buffer;
  mimeType: string;
  width: number;
  height: number;
  alt: string;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** `<first 8 of the item id>-hero.png`, `…-section-2.png`: URL-safe, and tells the item and slot apart in a list. */
export function contentImageFilename(contentId: string, slot: ImageSlot, mimeType: string): string {
  return `${contentId.slice(0, 8)}-${slot.replace(':', '-')}.${EXTENSIONS[mimeType] ?? 'png'}`;
}

/**
 * Writes the image to the account's media library, tagged `content_image` and `content:<item id>`, and attaches it
 * to the item with the slot as placement. Run it inside the caller's transaction: the two writes go together.
 */
export async function addContentImageToLibrary(trx: Knex, img: LibraryImage): Promise<MediaAssetRow> {
  const asset = await insertAsset(trx, img.accountId, {
    filename: contentImageFilename(img.contentId, img.slot, img.mimeType),
    mime_type: img.mimeType,
    width: img.width,
    height: img.height,
    byte_size: img.bytes.length,
    sha256: createHash('sha256').update(img.bytes).digest('hex'),
    public_token: newPublicToken(),
    tags: [CONTENT_IMAGE_TAG, contentTag(img.contentId)],
    alt_text: img.alt,
    data: img.bytes,
  });
  await attachImage(trx, img.accountId, img.contentId, asset.id, img.slot);
  return asset;
}
