import { createHash } from 'node:crypto';
import { FormData, request } from 'undici';
import { ApiError } from '../../../http/errors';
import type { CompositeContext } from './types';

/** The platform's own ceiling for one asset (images are 4 MB, other files 10 MB there; the platform enforces the split). */
export const ASSET_MAX_BYTES = 10 * 1024 * 1024;

interface CreatedAsset {
  id: string;
  uploadUrl?: string;
  uploadDetails?: Record<string, string>;
  contentType?: string;
}

const incomplete = (assetId: string, why: string, upstreamStatus?: number) =>
  new ApiError(
    424,
    'asset_upload_incomplete',
    `the asset record ${assetId} was created but its bytes did not upload (${why}); run asset_upload again under a new Idempotency-Key to finish`,
    {
      details: { asset_id: assetId, step: 'upload' },
      upstreamStatus,
    },
  );

function decodeContent(base64: string): Buffer {
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(base64)) {
    throw new ApiError(400, 'validation_failed', 'content_base64 is not base64', {
      errors: [{ path: 'content_base64', message: 'not base64' }],
    });
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0)
    throw new ApiError(400, 'validation_failed', 'content_base64 is empty', { errors: [{ path: 'content_base64', message: 'empty' }] });
  if (bytes.length > ASSET_MAX_BYTES) {
    throw new ApiError(413, 'payload_too_large', `the asset is ${bytes.length} bytes; the platform takes at most ${ASSET_MAX_BYTES}`);
  }
  return bytes;
}

/**
 * asset_upload, the platform's two steps: create the asset record with the file's MD5 (the platform's integrity
 * field, not a security hash), which answers a presigned upload target; then POST the bytes there as multipart
 * form data with the presigned fields first. The upload target is the platform's storage, so our bearer token is
 * never sent to it. A failure of the second step is 424 asset_upload_incomplete naming the orphan record.
 */
export async function assetUpload({ client, params, config }: CompositeContext) {
  const bytes = decodeContent(String(params.content_base64));
  const fileHash = createHash('md5').update(bytes).digest('hex');
  const body: Record<string, unknown> = { fileName: params.fileName, fileHash };
  if (params.parentFolder !== undefined) body.parentFolder = params.parentFolder;
  const created = (
    await client.request<CreatedAsset>({
      method: 'POST',
      base: 'v2',
      path: `/sites/${encodeURIComponent(String(params.site_id))}/assets`,
      body,
    })
  ).body;
  if (!created?.id || typeof created.uploadUrl !== 'string') {
    throw new ApiError(502, 'platform_upstream', 'the site platform created the asset without an upload target', {
      details: { asset_id: created?.id ?? null },
    });
  }

  const form = new FormData();
  for (const [k, v] of Object.entries(created.uploadDetails ?? {})) form.append(k, String(v));
  form.append('file', new Blob([bytes], { type: created.contentType ?? 'application/octet-stream' }), String(params.fileName));
  let status: number;
  try {
    const res = await request(created.uploadUrl, {
      method: 'POST',
      body: form,
      headersTimeout: config.SITE_PLATFORM_TIMEOUT_MS,
      bodyTimeout: config.SITE_PLATFORM_TIMEOUT_MS,
    });
    status = res.statusCode;
    await res.body.dump();
  } catch {
    throw incomplete(created.id, 'the upload target could not be reached');
  }
  if (status < 200 || status > 299) throw incomplete(created.id, `the upload target answered ${status}`, status);

  // The record as the platform now serves it (hostedUrl set); the created one is the fallback if that read fails.
  const stored = await client
    .request<Record<string, unknown>>({ method: 'GET', base: 'v2', path: `/assets/${encodeURIComponent(created.id)}` })
    .then(
      (r) => r.body,
      () => undefined,
    );
  const { uploadUrl: _url, uploadDetails: _details, ...asset } = created as CreatedAsset & Record<string, unknown>;
  return { ...(stored ?? asset), fileHash };
}
