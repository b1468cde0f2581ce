import { ApplicationFailure } from '@temporalio/common';
import { consumeImageUnit, reserveImageUnit } from '../../billing/service';
import { isForeignKeyViolation } from '../../db/errors';
import { ApiError } from '../../http/errors';
import { contentNotFound } from '../content/errors';
import { createImageClient, type ReferenceImage } from '../../clients/providers/images';
import type { SitePlatformDeps } from '../../sitePlatform/connections/deps';
import type { RenderedImage, RenderRequest } from '../../../workflows/contentImages.contract';
import { referenceAssets } from '../brand/service';
import { findAssetBytes } from '../media/store';
import { hostImage } from './host';
import { findOutput } from './outputStore';

const REFERENCE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

const providerNotConfigured = () =>
  new ApiError(503, 'image_provider_not_configured', 'no image provider is configured (IMAGE_API_KEY); ask an operator to set one');

// Not an API answer: a run's render whose unit was refunded already stops there (a warning of the run says so).
const unitRefunded = (unitKey: string) =>
  ApplicationFailure.nonRetryable(`the image unit ${unitKey} was refunded already; this render is not tried again`, 'image_unit_refunded');

/** The brand profile's reference images with their bytes (logo first), in the formats the image API takes. */
async function referencesOf(deps: SitePlatformDeps, accountId: string, projectId: string | null): Promise<ReferenceImage[]> {
  const assets = await referenceAssets(deps.db, accountId, projectId ?? undefined).catch((err) => {
    // The item's project was deleted since planning: the account's guide applies.
    if (err instanceof ApiError && err.status === 404) return referenceAssets(deps.db, accountId, undefined);
    throw err;
  });
  const usable = assets.filter((a) => REFERENCE_TYPES.has(a.mime_type));
  const rows = new Map(
    (
      await findAssetBytes(
        deps.db,
        accountId,
        usable.map((a) => a.id),
      )
    ).map((r) => [r.id, r]),
  );
  return usable.flatMap((a) => {
    const row = rows.get(a.id);
    return row ? [{ bytes: row.data, mimeType: row.mime_type as ReferenceImage['mimeType'] }] : [];
  });
}

/**
 * One image of a run: its output row when an earlier attempt hosted it already (nothing is charged or rendered
 * again); else reserve its unit (402 `quota_exhausted` when none is left), render with the brand references, host
 * and register it, and consume the unit. A unit refunded already is never rendered on (no free images).
 */
export async function renderImage(
  deps: SitePlatformDeps,
  req: RenderRequest,
  actor: () => Promise<string>,
  signal?: AbortSignal,
): Promise<RenderedImage> {
  const done = await findOutput(deps.db, req.accountId, req.unitKey);
  if (done) {
    await consumeImageUnit(deps.db, req.accountId, req.unitKey);
    return done;
  }
  const client = createImageClient(deps.config);
  if (!client) throw providerNotConfigured();
  const { unit } = await reserveImageUnit(deps.db, req.accountId, req.unitKey);
  if (unit.status === 'refunded') throw unitRefunded(req.unitKey);

  const references = await referencesOf(deps, req.accountId, req.projectId);
  const image = await client.generate({ prompt: req.image.prompt, size: req.image.size, references, signal });
  const hosted = await hostImage(deps, {
    accountId: req.accountId,
    contentId: req.contentId,
    unitKey: req.unitKey,
    slot: req.image.slot,
    bytes: image.bytes,
    mimeType: image.mimeType,
    width: image.width,
    height: image.height,
    alt: req.image.alt,
    host: req.host,
    publicBaseUrl: req.publicBaseUrl,
    actor,
  }).catch((err) => {
    // The item was deleted while its image rendered: not worth another attempt (the workflow refunds the unit).
    if (
      isForeignKeyViolation(err, 'content_image_outputs_content_id_foreign') ||
      isForeignKeyViolation(err, 'content_item_images_content_id_foreign')
    )
      throw contentNotFound();
    throw err;
  });
  await consumeImageUnit(deps.db, req.accountId, req.unitKey);
  return hosted;
}
