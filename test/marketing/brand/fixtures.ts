import { call } from '../../helpers/http';
import { createItem, uploadPng } from '../media/fixtures';

export const guidePath = (projectId?: string, agent = false) =>
  `${agent ? '/api/agent' : '/api'}/marketing${projectId === undefined ? '' : `/projects/${projectId}`}/brand`;

export const putGuide = (token: string, body: unknown, projectId?: string, agent = false) =>
  call('PUT', guidePath(projectId, agent), { token, body });

export const getGuide = (token: string, projectId?: string, agent = false) => call('GET', guidePath(projectId, agent), { token });

export const getProfile = (token: string, projectId?: string) =>
  call('GET', `/api/agent/marketing/brand/image-profile${projectId === undefined ? '' : `?project_id=${encodeURIComponent(projectId)}`}`, {
    token,
  });

/** A media asset of the account (uploaded to a throwaway item, as the dashboard does), optionally tagged. */
export async function newAsset(ownerToken: string, accountId: string, tags: string[] = [], altText?: string) {
  const asset = await uploadPng(ownerToken, await createItem(accountId), altText ? { alt_text: altText } : {});
  if (tags.length === 0) return asset;
  const res = await call('PATCH', `/api/marketing/media/${asset.id}`, { token: ownerToken, body: { tags } });
  return res.body;
}
