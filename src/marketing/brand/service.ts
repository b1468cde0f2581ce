import type { Knex } from '../../db/knex';
import { isForeignKeyViolation } from '../../db/errors';
import { ApiError } from '../../http/errors';
import { invalidReference } from '../../http/fieldErrors';
import { projectNotFound, requireOwnProject } from '../../projects/service';
import { mediaPath } from '../media/files';
import * as media from '../media/service';
import type { MediaAssetRow } from '../media/service';
import { BRAND_REFERENCE_TAG } from '../media/tags';
import { effectiveGuide, promptBlock } from './profile';
import * as store from './store';
import type { BrandGuideFields, BrandGuideRow } from './store';

export type { BrandColor, BrandGuideFields, BrandGuideRow } from './store';

/** At most this many `brand_reference` images follow the logo in a profile. */
export const MAX_BRAND_REFERENCES = 3;

export interface ReferenceImage {
  id: string;
  url: string;
  role: 'logo' | 'brand';
  alt?: string;
}

export interface ImageProfile {
  project_id: string | null;
  prompt_block: string;
  avoid_list: string[];
  reference_images: ReferenceImage[];
}

/** The account's media asset, or undefined (unknown, another account's, or deleted meanwhile). */
async function ownAsset(db: Knex, accountId: string, assetId: string): Promise<MediaAssetRow | undefined> {
  try {
    return await media.getMedia(db, accountId, assetId);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'media_asset_not_found') return undefined;
    throw err;
  }
}

/** The scope's own guide (the account's when `projectId` is null); undefined while none was saved. */
export async function getGuide(db: Knex, accountId: string, projectId: string | null): Promise<BrandGuideRow | undefined> {
  if (projectId !== null) await requireOwnProject(db, accountId, projectId);
  return store.findGuide(db, accountId, projectId);
}

/** Replaces the scope's guide; the logo must be a media asset of the account (400 `invalid_reference`). */
export async function putGuide(db: Knex, accountId: string, projectId: string | null, fields: BrandGuideFields): Promise<BrandGuideRow> {
  if (projectId !== null) await requireOwnProject(db, accountId, projectId);
  const logoId = fields.primary_logo_asset_id;
  const badLogo = () => invalidReference('primary_logo_asset_id', 'media asset');
  if (logoId !== null && !(await ownAsset(db, accountId, logoId))) throw badLogo();
  try {
    return await store.upsertGuide(db, accountId, projectId, fields);
  } catch (err) {
    // The asset or the project was deleted between the check and the write.
    if (isForeignKeyViolation(err, 'brand_guides_primary_logo_asset_id_foreign')) throw badLogo();
    if (isForeignKeyViolation(err, 'brand_guides_project_id_foreign')) throw projectNotFound();
    throw err;
  }
}

const imageOf = (asset: MediaAssetRow, baseUrl: string, id: string, role: ReferenceImage['role']): ReferenceImage => ({
  id,
  url: `${baseUrl}${mediaPath(asset.public_token, asset.filename)}`,
  role,
  ...(asset.alt_text ? { alt: asset.alt_text } : {}),
});

/** The guide that applies to the account (or one of its projects), its primary logo and newest `brand_reference` images. */
async function profileParts(db: Knex, accountId: string, projectId: string | undefined) {
  const [accountGuide, projectGuide] = await Promise.all([
    store.findGuide(db, accountId, null),
    projectId === undefined ? undefined : store.findGuide(db, accountId, projectId),
  ]);
  const guide = effectiveGuide(accountGuide, projectGuide);
  const logoId = guide.primary_logo_asset_id;
  const [logo, brand] = await Promise.all([
    logoId === null ? undefined : ownAsset(db, accountId, logoId),
    media.listMedia(db, accountId, { tag: BRAND_REFERENCE_TAG }, { page: 1, limit: MAX_BRAND_REFERENCES + 1 }),
  ]);
  const references = brand.rows.filter((a) => a.id !== logo?.id).slice(0, MAX_BRAND_REFERENCES);
  return { guide, logo, references };
}

/**
 * What an image prompt carries for the account (or one of its projects): the effective guide as plain sentences,
 * its avoid list, the primary logo, then the newest `brand_reference` images (the logo asset is not repeated).
 */
export async function imageProfile(db: Knex, accountId: string, projectId: string | undefined, baseUrl: string): Promise<ImageProfile> {
  if (projectId !== undefined) await requireOwnProject(db, accountId, projectId);
  const { guide, logo, references } = await profileParts(db, accountId, projectId);
  return {
    project_id: projectId ?? null,
    prompt_block: promptBlock(guide),
    avoid_list: guide.avoid,
    reference_images: [
      ...(logo ? [imageOf(logo, baseUrl, 'logo_primary', 'logo')] : []),
      ...references.map((a) => imageOf(a, baseUrl, a.id, 'brand')),
    ],
  };
}

/** The profile's reference images as media assets, in the profile's order (logo first); the project must be the account's. */
export async function referenceAssets(db: Knex, accountId: string, projectId: string | undefined): Promise<MediaAssetRow[]> {
  if (projectId !== undefined) await requireOwnProject(db, accountId, projectId);
  const { logo, references } = await profileParts(db, accountId, projectId);
  return [...(logo ? [logo] : []), ...references];
}
