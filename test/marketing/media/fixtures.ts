import assert from 'node:assert/strict';
import sharp from 'sharp';
import { call, type CallResult } from '../../helpers/http';
import { harness } from '../../helpers/harness';

export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/**
 * A content item of the account, written straight to its table: these tests are about what hangs off an item,
 * and need no more of it than its row.
 */
export async function createItem(accountId: string, title = 'A post'): Promise<string> {
  const [row] = await harness().db('content_items').insert({ account_id: accountId, title }).returning('id');
  return row.id;
}

/** A solid-colour image of the given format. */
export function image(format: 'png' | 'jpeg' | 'webp' | 'gif' | 'avif', width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .toFormat(format)
    .toBuffer();
}

export interface FilePart {
  bytes: Buffer;
  filename: string;
  type?: string;
  field?: string;
}

/** A multipart/form-data body as a browser's FormData would send it, with its content-type (boundary included). */
export async function multipart(
  files: FilePart[],
  fields: Record<string, string> = {},
): Promise<{ rawBody: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const f of files) form.append(f.field ?? 'file', new Blob([f.bytes], { type: f.type ?? 'application/octet-stream' }), f.filename);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://multipart.invalid/', { method: 'POST', body: form });
  return { rawBody: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** POSTs one file (plus fields) to an item's upload-image route, dashboard or agent. */
export async function upload(
  token: string,
  contentId: string,
  file: FilePart,
  fields: Record<string, string> = {},
  agent = false,
): Promise<CallResult> {
  const prefix = agent ? '/api/agent' : '/api';
  return call('POST', `${prefix}/marketing/content/${contentId}/upload-image`, { token, ...(await multipart([file], fields)) });
}

/** Uploads a small PNG and answers the created asset. */
export async function uploadPng(token: string, contentId: string, fields: Record<string, string> = {}) {
  const res = await upload(token, contentId, { bytes: await image('png'), filename: 'pic.png', type: 'image/png' }, fields);
  assert.equal(res.status, 201, res.text);
  return res.body.asset;
}

export async function countAssets(accountId: string): Promise<number> {
  return Number((await harness().db('media_assets').where({ account_id: accountId }).count({ n: '*' }))[0].n);
}

/** The path part of an asset url (the app answers on the harness's own origin). */
export const pathOf = (url: string) => new URL(url).pathname;
