import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { refId } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { twinRoutes } from '../twins';
import { normalizePath } from './paths';
import { viewsBatch } from './views';
import { PROJECT_DEGRADED_REASONS } from './viewsCollector';
import * as docs from './viewsDocs';
import { WINDOWS } from './window';

const tags = ['Marketing analytics'];

export const MAX_VIEWS_PAIRS = 200;

const pair = z.strictObject({
  project_id: refId().describe("A website project of the account (another account's is omitted from the answer)."),
  path: z
    .string()
    .min(1)
    .max(2048)
    .transform((value, ctx) => {
      const path = normalizePath(value);
      if (path === null) {
        ctx.addIssue({ code: 'custom', message: 'must be a page path or an http(s) URL' });
        return z.NEVER;
      }
      return path;
    })
    .describe("A page path or URL of the project's site; normalised as described."),
});

const body = z.strictObject({
  items: z
    .array(pair)
    .min(1, { error: 'send 1 to 200 items' })
    .max(MAX_VIEWS_PAIRS, { error: `send at most ${MAX_VIEWS_PAIRS} items` })
    .describe(`1 to ${MAX_VIEWS_PAIRS} (project_id, path) pairs.`),
  window: z.enum(WINDOWS).default('30d').describe('7d, 30d (default), 90d or all.'),
});

const figures = { project_id: z.string(), path: z.string() };
const projectReason = z.enum(PROJECT_DEGRADED_REASONS);
const answer = z
  .object({
    stats: z.array(z.object({ ...figures, form_submits: z.int(), leads: z.int(), contacts: z.int() })),
    degraded: z.boolean().describe('True when some collector figures are missing: no collector, or a project whose query failed.'),
    degraded_reason: z
      .enum([...PROJECT_DEGRADED_REASONS, 'mixed'])
      .nullable()
      .describe('The reason every degraded project shares, `mixed` when they differ, null when not degraded.'),
    degraded_projects: z
      .array(z.object({ project_id: z.string(), reason: projectReason }))
      .describe('Each project whose collector figures are missing, with its own reason; its pairs are in `ledger`.'),
    ledger: z.array(z.object({ ...figures, leads: z.int(), contacts: z.int() })).describe('Ledger-only figures (see the description).'),
    projects_without_site: z.array(z.string()),
  })
  .meta({ id: 'ContentViews' });

/** `POST /api/marketing/content/views` (and the agent twin): batch page and lead stats. */
export function viewsRoutes(): RouteDef[] {
  return twinRoutes(
    {
      method: 'post',
      path: '/marketing/content/views',
      operationId: 'marketingContentViews',
      tags,
      permission: 'marketing.content:read',
      summary: 'Page and lead stats for 1 to 200 (project, path) pairs.',
      description: docs.VIEWS,
      body,
      responses: { 200: { description: 'The stats (writes nothing).', schema: answer } },
      errors: [],
    },
    async ({ body, auth, deps }) => ({ status: 200, body: await viewsBatch(deps, accountOf(auth), body.items, body.window) }),
  );
}
