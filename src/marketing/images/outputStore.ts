import type { Knex } from '../../db/knex';
import type { RenderedImage } from '../../../workflows/contentImages.contract';

/** The warning of an image that is hosted (and will be placed) but has no media library row. */
export const LIBRARY_ROW_WARNING = 'the image is hosted and placed but its media library row could not be written';

export interface ImageOutput extends Omit<RenderedImage, 'warnings'> {
  contentId: string;
  byteSize: number;
}

interface OutputRow {
  unit_key: string;
  content_id: string;
  hosted_on: RenderedImage['hostedOn'];
  url: string;
  asset_id: string | null;
  platform_asset_id: string | null;
  mime_type: string;
  width: number;
  height: number;
}

// Only the library warning can be told from the row again; a replay answers it so the run's result keeps it.
const renderedFrom = (row: OutputRow): RenderedImage => ({
  unitKey: row.unit_key,
  url: row.url,
  hostedOn: row.hosted_on,
  assetId: row.asset_id,
  platformAssetId: row.platform_asset_id,
  width: row.width,
  height: row.height,
  mimeType: row.mime_type,
  warnings: row.asset_id === null ? [LIBRARY_ROW_WARNING] : [],
});

/** The image already hosted under this unit key, if any. */
export async function findOutput(db: Knex, accountId: string, unitKey: string): Promise<RenderedImage | undefined> {
  const row = await db('content_image_outputs').where({ account_id: accountId, unit_key: unitKey }).first<OutputRow | undefined>();
  return row ? renderedFrom(row) : undefined;
}

/** Records a hosted image; a second row for the same unit key is a unique violation (23505). */
export async function insertOutput(db: Knex, accountId: string, out: ImageOutput): Promise<void> {
  await db('content_image_outputs').insert({
    account_id: accountId,
    unit_key: out.unitKey,
    content_id: out.contentId,
    hosted_on: out.hostedOn,
    url: out.url,
    asset_id: out.assetId,
    platform_asset_id: out.platformAssetId,
    mime_type: out.mimeType,
    width: out.width,
    height: out.height,
    byte_size: out.byteSize,
  });
}
