import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { requiredText } from '../http/fields';
import { idParams } from '../http/ids';
import { listEnvelope, pageQuery } from '../http/pagination';
import type { RouteDef } from '../http/route';
import * as docs from './docs';
import { analyticsSiteIdField } from './analyticsSiteId';
import { hostField } from './host';
import { PROJECT_KINDS, projectListSchema, projectSchema, toProjectJson } from './json';
import * as projects from './service';
import { projectTwin } from './twins';

const tags = ['Projects'];

const fields = {
  name: requiredText(200).describe('1–200 characters, trimmed.'),
  host: hostField.describe('Public hostname (`www.example.com`), lowercased; null or "" for none.'),
  kind: z
    .enum(PROJECT_KINDS)
    .describe('`service_hosted`: the service renders and deploys it; `platform_hosted`: the site platform hosts it.'),
};

const createBody = z.strictObject({ name: fields.name, host: fields.host.optional(), kind: fields.kind });
const patchBody = z.strictObject({
  name: fields.name.optional(),
  host: fields.host.optional(),
  kind: fields.kind.optional(),
  analytics_site_id: analyticsSiteIdField.optional(),
});
const listQuery = z.strictObject({ ...pageQuery });

const twin = projectTwin(tags);

/** Website projects of the account: list, create, read, change, delete. */
export function projectRoutes(): RouteDef[] {
  return [
    ...twin(
      'read',
      {
        method: 'get',
        path: '/projects',
        operationId: 'listProjects',
        summary: "List the account's website projects, newest first.",
        description: docs.LIST,
        query: listQuery,
        responses: { 200: { description: 'A page of projects', schema: projectListSchema } },
      },
      async ({ query, auth, deps }) => {
        const { rows, total } = await projects.listProjects(deps.db, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toProjectJson), total, query) };
      },
    ),

    ...twin(
      'write',
      {
        method: 'post',
        path: '/projects',
        operationId: 'createProject',
        idempotent: true,
        summary: 'Create a website project.',
        description: docs.CREATE,
        body: createBody,
        responses: { 201: { description: 'The project', schema: projectSchema } },
      },
      async ({ body, auth, deps }) => {
        const row = await projects.createProject(deps.db, accountOf(auth), { name: body.name, host: body.host ?? null, kind: body.kind });
        return { status: 201, body: toProjectJson(row) };
      },
    ),

    ...twin(
      'read',
      {
        method: 'get',
        path: '/projects/{id}',
        operationId: 'getProject',
        summary: 'Read a website project.',
        description: docs.GET,
        params: idParams,
        responses: { 200: { description: 'The project', schema: projectSchema } },
        errors: [docs.projectNotFoundError],
      },
      async ({ params, auth, deps }) => ({ body: toProjectJson(await projects.requireOwnProject(deps.db, accountOf(auth), params.id)) }),
    ),

    ...twin(
      'write',
      {
        method: 'patch',
        path: '/projects/{id}',
        operationId: 'updateProject',
        summary: "Change a website project's name, host, kind or analytics site id.",
        description: docs.PATCH,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The project', schema: projectSchema } },
        errors: [docs.projectNotFoundError],
      },
      async ({ params, body, auth, deps }) => {
        const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
        return { body: toProjectJson(await projects.updateProject(deps.db, accountOf(auth), params.id, changes)) };
      },
    ),

    ...twin(
      'write',
      {
        method: 'delete',
        path: '/projects/{id}',
        operationId: 'deleteProject',
        summary: 'Delete a website project and what hangs off it.',
        description: docs.DELETE,
        params: idParams,
        responses: { 204: { description: 'Deleted' } },
        errors: [docs.projectNotFoundError, docs.projectInUseError],
      },
      async ({ params, auth, deps }) => {
        await projects.deleteProject(deps.db, accountOf(auth), params.id);
        return { status: 204 };
      },
    ),
  ];
}
