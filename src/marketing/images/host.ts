import type { Knex } from '../../db/knex';
import { isUniqueViolation } from '../../db/errors';
import { ApiError } from '../../http/errors';
import type { Logger } from '../../logger';
import type { SitePlatformDeps } from '../../sitePlatform/connections/deps';
import { runOperation } from '../../sitePlatform/operations/runner';
import type { ImagePlan, RenderedImage } from '../../../workflows/contentImages.contract';
import { mediaPath } from '../media/files';
import { addContentImageToLibrary, contentImageFilename, type LibraryImage } from './library';
import { findOutput, insertOutput, LIBRARY_ROW_WARNING, type ImageOutput } from './outputStore';

export interface HostRequest extends LibraryImage {
  /** `<workflowId>:<runId>:<slot>`: the output row's key. */
  unitKey: string;
  host: ImagePlan['host'];
  /** The API's public origin, for media-store URLs. */
  publicBaseUrl: string;
  /** The audit actor of the platform writes. */
  actor: () => Promise<string>;
}

type SitePlatformHost = Extract<ImagePlan['host'], { kind: 'site_platform' }>;

/**
 * Hosts a rendered image once per unit key: on the platform's asset library or in the service's media store, with
 * its media library row, and records it in content_image_outputs. A retried activity finds its row and answers it
 * without uploading again. Platform upload failures propagate so the activity retries.
 */
export async function hostImage(deps: SitePlatformDeps, req: HostRequest): Promise<RenderedImage> {
  const existing = await findOutput(deps.db, req.accountId, req.unitKey);
  if (existing) return existing;
  try {
    return req.host.kind === 'site_platform' ? await hostOnPlatform(deps, req, req.host) : await hostInMediaStore(deps, req);
  } catch (err) {
    // Another attempt recorded this unit first: its row is the answer.
    const raced = isUniqueViolation(err, 'content_image_outputs_account_id_unit_key_unique')
      ? await findOutput(deps.db, req.accountId, req.unitKey)
      : undefined;
    if (raced) return raced;
    throw err;
  }
}

const outputOf = (req: HostRequest, rest: Pick<ImageOutput, 'url' | 'hostedOn' | 'assetId' | 'platformAssetId'>): ImageOutput => ({
  ...rest,
  unitKey: req.unitKey,
  contentId: req.contentId,
  mimeType: req.mimeType,
  width: req.width,
  height: req.height,
  byteSize: req.bytes.length,
});

const rendered = ({ contentId: _c, byteSize: _b, ...out }: ImageOutput, warnings: string[]): RenderedImage => ({ ...out, warnings });

/** The library row is the host here, so one transaction writes it, the attachment and the output row, or nothing. */
async function hostInMediaStore(deps: SitePlatformDeps, req: HostRequest): Promise<RenderedImage> {
  return deps.db.transaction(async (trx) => {
    const asset = await addContentImageToLibrary(trx, req);
    const url = req.publicBaseUrl.replace(/\/+$/, '') + mediaPath(asset.public_token, asset.filename);
    const out = outputOf(req, { url, hostedOn: 'media_store', assetId: asset.id, platformAssetId: null });
    await insertOutput(trx, req.accountId, out);
    return rendered(out, []);
  });
}

async function hostOnPlatform(deps: SitePlatformDeps, req: HostRequest, host: SitePlatformHost): Promise<RenderedImage> {
  const run = (action: string, params: Record<string, unknown>) =>
    runOperation(deps, {
      accountId: req.accountId,
      projectId: host.projectId,
      method: 'POST',
      action,
      params: { site_id: host.siteId, ...params },
      actor: req.actor,
    });
  const uploaded = (
    await run('asset_upload', {
      fileName: contentImageFilename(req.contentId, req.slot, req.mimeType),
      content_base64: req.bytes.toString('base64'),
    })
  ).result as { id?: string; hostedUrl?: string | null };
  const { id: platformAssetId, hostedUrl: url } = uploaded ?? {};
  if (!platformAssetId || !url) {
    throw new ApiError(502, 'platform_upstream', 'the site platform stored the image but answered no hosted URL', {
      details: { platform_asset_id: platformAssetId ?? null },
    });
  }
  const warnings: string[] = [];
  try {
    await run('asset_update', { asset_id: platformAssetId, altText: req.alt });
  } catch (err) {
    deps.logger.warn({ err, unitKey: req.unitKey }, 'content image: platform alt text not set');
    warnings.push('the image is hosted on the site platform but its alt text there could not be set');
  }
  // One transaction, so an attempt that loses a race on the unit key leaves no second library row behind.
  return deps.db.transaction(async (trx) => {
    const assetId = await libraryRowOrNull(trx, deps.logger, req, warnings);
    const out = outputOf(req, { url, hostedOn: 'site_platform', assetId, platformAssetId });
    await insertOutput(trx, req.accountId, out);
    return rendered(out, warnings);
  });
}

/**
 * The platform hosts the image, so a library row that cannot be written costs only the row (asset_id null). The
 * nested transaction is a savepoint: its failure leaves the caller's transaction usable for the output row.
 */
async function libraryRowOrNull(trx: Knex, logger: Logger, img: LibraryImage & { unitKey: string }, warnings: string[]) {
  try {
    return (await trx.transaction((savepoint) => addContentImageToLibrary(savepoint, img))).id;
  } catch (err) {
    logger.warn({ err, unitKey: img.unitKey }, 'content image: media library row not written');
    warnings.push(LIBRARY_ROW_WARNING);
    return null;
  }
}
