import { z } from 'zod';
import { read, write } from '../define';
import { confirm, id, obj, paging, siteId } from '../params';

const asset = { ...siteId, asset_id: id };
const r = { scopes: ['assets:read'] } as const;
const w = { scopes: ['assets:write'] } as const;

export const assetOperations = [
  read('asset_list', 'asset', 'GET', '/sites/{site_id}/assets', obj({ ...siteId, ...paging }), r),
  read('asset_get', 'asset', 'GET', '/assets/{asset_id}', obj(asset), r),
  // Composite: creates the asset record (which answers a presigned upload target), then uploads the bytes; a failure
  // after the first step is 424 asset_upload_incomplete. The caller sends the bytes: the service never fetches a URL
  // for an upload (no server-side request on a caller's behalf). Uploads take no lock.
  write(
    'asset_upload',
    'asset',
    'POST',
    '/sites/{site_id}/assets',
    obj({ ...siteId, fileName: z.string().min(1).max(255), content_base64: z.string().min(1), parentFolder: z.string().optional() }),
    { ...w, composite: 'asset_upload' },
  ),
  write(
    'asset_update',
    'asset',
    'PATCH',
    '/assets/{asset_id}',
    obj({ ...asset, displayName: z.string().optional(), altText: z.string().max(1000).optional(), localeId: z.string().optional() }),
    { ...w, lock: 'asset_id' },
  ),
  write('asset_delete', 'asset', 'DELETE', '/assets/{asset_id}', obj({ ...asset, ...confirm }), { ...w, confirm: true, lock: 'asset_id' }),
  read('asset_folder_list', 'asset', 'GET', '/sites/{site_id}/asset_folders', obj(siteId), r),
  read('asset_folder_get', 'asset', 'GET', '/asset_folders/{asset_folder_id}', obj({ ...siteId, asset_folder_id: id }), r),
  write(
    'asset_folder_create',
    'asset',
    'POST',
    '/sites/{site_id}/asset_folders',
    obj({ ...siteId, displayName: z.string().min(1), parentFolder: z.string().optional() }),
    w,
  ),
];
