/**
 * Assets and asset folders. Upload is two steps as on the platform: POST creates the asset record and answers a
 * presigned `uploadUrl` (here a loopback `/uploads/{assetId}` on the simulator), then the bytes are POSTed there.
 * An asset whose bytes never arrived lists with `size: 0` and no `hostedUrl`.
 */
import { z } from 'zod';
import { json, parseBody, platformError, type SimResponse } from '../http';
import type { Route, RouteContext } from '../router';
import { siteData, type SimAsset } from '../siteData';
import { iso, newId, type SimState } from '../state';
import { findOwned, withSite } from './support';
import { paginate, readPageQuery } from '../pagination';

const createBody = z.object({
  fileName: z.string().min(1).max(255),
  fileHash: z.string().regex(/^[a-f0-9]{32}$/i, 'MD5 hex digest'),
  parentFolder: z.string().optional(),
});
const updateBody = z.object({
  displayName: z.string().min(1).optional(),
  altText: z.string().max(1000).nullable().optional(),
  localeId: z.string().optional(),
});
const folderBody = z.object({ displayName: z.string().min(1), parentFolder: z.string().optional() });

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

export function assetView(siteId: string, a: SimAsset): Record<string, unknown> {
  const hosted = a.uploaded ? `https://cdn.sim.test/${siteId}/${a.id}_${encodeURIComponent(a.fileName)}` : null;
  return {
    id: a.id,
    contentType: a.contentType,
    size: a.size,
    siteId,
    hostedUrl: hosted,
    originalFileName: a.originalFileName,
    displayName: a.displayName,
    lastUpdated: a.lastUpdated,
    createdOn: a.createdOn,
    variants: [],
    altText: a.altText,
  };
}

function withAsset(ctx: RouteContext, then: (siteId: string, a: SimAsset) => SimResponse): SimResponse {
  const found = findOwned(ctx, 'Asset', (d) => d.assets.find((a) => a.id === ctx.req.params.assetId));
  return found.ok ? then(found.siteId, found.value) : found.response;
}

/** The loopback upload target: unauthenticated like a presigned S3 POST; the key in the URL is the credential. */
export function receiveUpload(state: SimState, assetId: string, key: string | null, bytes: Buffer): SimResponse {
  for (const siteId of state.sites.keys()) {
    const asset = siteData(state, siteId).assets.find((a) => a.id === assetId);
    if (!asset) continue;
    if (key !== asset.fileHash)
      return {
        status: 403,
        raw: '<Error><Code>AccessDenied</Code><Message>Invalid upload key</Message></Error>',
        headers: { 'content-type': 'application/xml' },
      };
    asset.size = bytes.length;
    asset.uploaded = true;
    asset.lastUpdated = iso(state.now());
    return { status: 201, raw: '', headers: { 'content-type': 'application/xml' } };
  }
  return { status: 404, raw: '<Error><Code>NoSuchKey</Code></Error>', headers: { 'content-type': 'application/xml' } };
}

export const assetRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/assets$/,
    scope: 'assets:read',
    handle: (ctx) =>
      withSite(ctx, (site, d) => {
        const q = readPageQuery(ctx.req.query);
        if (!q.ok) return q.response;
        const page = paginate(d.assets, q.value);
        return json(200, { assets: page.rows.map((a) => assetView(site.id, a)), pagination: page.pagination });
      }),
  },
  {
    method: 'POST',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/assets$/,
    scope: 'assets:write',
    handle: (ctx) =>
      withSite(ctx, (site, d) => {
        const body = parseBody(ctx.req, createBody);
        if (!body.ok) return body.response;
        const folder = body.value.parentFolder;
        if (folder !== undefined && !d.folders.some((f) => f.id === folder))
          return platformError(400, 'validation_error', 'Unknown asset folder', [{ param: 'parentFolder', description: folder }]);
        const now = iso(ctx.state.now());
        const ext = body.value.fileName.split('.').pop()?.toLowerCase() ?? '';
        const asset: SimAsset = {
          id: newId(),
          fileName: body.value.fileName,
          displayName: body.value.fileName,
          originalFileName: body.value.fileName,
          contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
          size: 0,
          fileHash: body.value.fileHash.toLowerCase(),
          parentFolder: folder ?? null,
          altText: null,
          uploaded: false,
          createdOn: now,
          lastUpdated: now,
        };
        d.assets.push(asset);
        const host = String(ctx.req.headers.host ?? '127.0.0.1');
        // The reference's AssetUpload: the record's ids and dates plus the presigned POST target and its form fields.
        return json(200, {
          id: asset.id,
          contentType: asset.contentType,
          parentFolder: asset.parentFolder,
          originalFileName: asset.originalFileName,
          createdOn: asset.createdOn,
          lastUpdated: asset.lastUpdated,
          hostedUrl: null,
          assetUrl: null,
          uploadUrl: `http://${host}/uploads/${asset.id}`,
          uploadDetails: {
            acl: 'public-read',
            bucket: 'sim-uploads',
            key: asset.fileHash,
            'content-type': asset.contentType,
            success_action_status: '201',
            'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
            'X-Amz-Credential': 'SIMULATED/aws4_request',
            'X-Amz-Date': now.replace(/[-:]|\.\d{3}/g, ''),
            Policy: 'c2ltdWxhdGVk',
            'X-Amz-Signature': 'simulated',
            'Cache-Control': 'max-age=31536000, must-revalidate',
          },
        });
      }),
  },
  {
    method: 'GET',
    pattern: /^\/assets\/(?<assetId>[^/]+)$/,
    scope: 'assets:read',
    handle: (ctx) => withAsset(ctx, (siteId, a) => json(200, assetView(siteId, a))),
  },
  {
    method: 'PATCH',
    pattern: /^\/assets\/(?<assetId>[^/]+)$/,
    scope: 'assets:write',
    handle: (ctx) =>
      withAsset(ctx, (siteId, a) => {
        const body = parseBody(ctx.req, updateBody);
        if (!body.ok) return body.response;
        if (body.value.displayName !== undefined) a.displayName = body.value.displayName;
        if (body.value.altText !== undefined) a.altText = body.value.altText;
        a.lastUpdated = iso(ctx.state.now());
        return json(200, assetView(siteId, a));
      }),
  },
  {
    method: 'DELETE',
    pattern: /^\/assets\/(?<assetId>[^/]+)$/,
    scope: 'assets:write',
    handle: (ctx) =>
      withAsset(ctx, (siteId, a) => {
        const list = siteData(ctx.state, siteId).assets;
        list.splice(list.indexOf(a), 1);
        return { status: 204 };
      }),
  },
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/asset_folders$/,
    scope: 'assets:read',
    handle: (ctx) =>
      withSite(ctx, (site, d) =>
        json(200, {
          assetFolders: d.folders.map((f) => folderView(site.id, f.id, d)),
          pagination: { limit: 100, offset: 0, total: d.folders.length },
        }),
      ),
  },
  {
    method: 'GET',
    pattern: /^\/asset_folders\/(?<folderId>[^/]+)$/,
    scope: 'assets:read',
    handle: (ctx) => {
      const found = findOwned(ctx, 'Asset folder', (d) => d.folders.find((f) => f.id === ctx.req.params.folderId));
      return found.ok ? json(200, folderView(found.siteId, found.value.id, siteData(ctx.state, found.siteId))) : found.response;
    },
  },
  {
    method: 'POST',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/asset_folders$/,
    scope: 'assets:write',
    handle: (ctx) =>
      withSite(ctx, (site, d) => {
        const body = parseBody(ctx.req, folderBody);
        if (!body.ok) return body.response;
        const parent = body.value.parentFolder;
        if (parent !== undefined && !d.folders.some((f) => f.id === parent))
          return platformError(400, 'validation_error', 'Unknown asset folder', [{ param: 'parentFolder', description: parent }]);
        const now = iso(ctx.state.now());
        const folder = { id: newId(), displayName: body.value.displayName, parentFolder: parent ?? null, createdOn: now, lastUpdated: now };
        d.folders.push(folder);
        return json(200, folderView(site.id, folder.id, d));
      }),
  },
];

function folderView(siteId: string, folderId: string, d: ReturnType<typeof siteData>): Record<string, unknown> {
  const f = d.folders.find((x) => x.id === folderId)!;
  return { ...f, siteId, assets: d.assets.filter((a) => a.parentFolder === f.id).map((a) => a.id) };
}
