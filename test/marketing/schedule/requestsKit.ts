import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { contentPublishWorkflowId, scheduleQuery } from '../../../workflows/contentPublish.contract';
import type { CallOptions } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { blogTenant } from './blogTenant';
import { newProjectId } from '../../helpers/projects';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { startSiteWorld, type SiteWorld } from '../../sitePlatform/connections/fixtures';
import type { Tenant } from '../../sitePlatform/operations/fixtures';

/**
 * A simulator world with one tenant: its project publishes to a platform CMS collection (`collectionId`), and a second
 * project of the tenant (`nativeProjectId`) stays on the native CMS, bound to the same site so items can link to it.
 * Schedule requests run through the private app on the harness worker's task queue; dates are hours ahead, so
 * nothing fires while a test runs.
 */
export interface RequestWorld {
  world: SiteWorld;
  t: Tenant;
  collectionId: string;
  nativeProjectId: string;
  close(): Promise<void>;
}

export async function startRequestWorld(): Promise<RequestWorld> {
  const world = await startSiteWorld();
  const { t, collectionId } = await blogTenant(world);
  const nativeProjectId = await newProjectId(t.account.accountId, { kind: 'service_hosted', host: 'www.example.test' });
  await saveBinding(harness().db, t.account.accountId, nativeProjectId, {
    override_mode: 'inherit',
    connection_id: null,
    site_id: t.siteId,
  });
  return { world, t, collectionId, nativeProjectId, close: () => world.close() };
}

export const hoursAhead = (h = 3) => new Date(Date.now() + h * 3_600_000).toISOString();

export function requestsOf(rw: RequestWorld) {
  const call = (method: string, path: string, options?: CallOptions) => rw.world.app.call(method, path, options);
  const owner = rw.t.account.ownerToken;
  const agent = rw.t.account.agentKey;
  return {
    call,
    link: (projectId = rw.t.projectId, extra: Record<string, unknown> = {}) => ({
      project_id: projectId,
      collection_id: rw.collectionId,
      ...extra,
    }),
    async create(body: Record<string, unknown> = {}) {
      const slug = `post-${randomBytes(4).toString('hex')}`;
      const res = await call('POST', '/api/marketing/content', {
        token: owner,
        body: { title: `Heat pumps ${slug}`, slug, body: '<p>Why.</p>', excerpt: 'Short.', ...body },
      });
      assert.equal(res.status, 201, res.text);
      return res.body;
    },
    put: (id: string, body: unknown) => call('PUT', `/api/marketing/content/${id}`, { token: owner, body }),
    patch: (id: string, body: unknown) => call('PATCH', `/api/agent/marketing/content/${id}`, { token: agent, body }),
    get: (id: string) => call('GET', `/api/agent/marketing/content/${id}`, { token: agent }),
    schedule: (id: string, body: unknown, token = agent) => call('POST', `/api/agent/marketing/content/${id}/schedule`, { token, body }),
    unschedule: (id: string, token = agent) => call('DELETE', `/api/agent/marketing/content/${id}/schedule`, { token }),
    versions: async (id: string) => (await call('GET', `/api/marketing/content/${id}/versions`, { token: owner })).body.total as number,
    calendar: async () => (await call('GET', '/api/marketing/content/calendar', { token: owner })).body,
  };
}

export const workflowIdOf = (rw: RequestWorld, contentId: string) => contentPublishWorkflowId(rw.t.account.accountId, contentId);

export const handleOf = (rw: RequestWorld, contentId: string) => harness().client.workflow.getHandle(workflowIdOf(rw, contentId));

/** The workflow's status name and history length, or null when no run exists. */
export async function runOf(rw: RequestWorld, contentId: string): Promise<{ status: string; historyLength: number } | null> {
  try {
    const d = await handleOf(rw, contentId).describe();
    return { status: d.status.name, historyLength: d.historyLength };
  } catch (err) {
    if ((err as Error).name === 'WorkflowNotFoundError') return null;
    throw err;
  }
}

export const heldBy = (rw: RequestWorld, contentId: string) => handleOf(rw, contentId).query(scheduleQuery);

export const itemRow = (id: string) => harness().db('content_items').where({ id }).first();

/** Mocha hooks of a suite on one request world: started before the suite (handed to `onReady`), closed after it. */
export function useRequestWorld(onReady: (rw: RequestWorld, requests: ReturnType<typeof requestsOf>) => void): void {
  let rw: RequestWorld | undefined;
  before(async () => {
    rw = await startRequestWorld();
    onReady(rw, requestsOf(rw));
  });
  after(async () => {
    await rw?.close();
  });
}
