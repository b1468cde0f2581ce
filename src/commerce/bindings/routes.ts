import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { iso } from '../../http/fields';
import { refId } from '../../http/ids';
import { route, type RouteDef } from '../../http/route';
import { projectNotFoundError } from '../../projects/docs';
import { connectionSchema, toConnectionJson } from '../connections/json';
import * as docs from './docs';
import { getProjectSettings, putProjectSettings, resolveProjectConnection } from './service';
import type { ProjectSettingsRow } from './store';

const tags = ['Commerce'];

const params = z.strictObject({
  projectId: z
    .string()
    .describe("A project of your account (`/api/projects`). A malformed, unknown or another account's id answers 404 `project_not_found`."),
});

const mode = z.enum(['inherit', 'override', 'disabled']);

const settingsBody = z
  .strictObject({
    override_mode: mode.describe(
      '`inherit`: use the account default connection; `override`: use `connection_id`; `disabled`: no shop for this project.',
    ),
    connection_id: refId()
      .nullable()
      .optional()
      .describe('Required with `override` (a connection of your account); must be absent or null otherwise.'),
    storefront_api_version: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'must be a version like 2025-04 (YYYY-MM)' })
      .nullable()
      .optional()
      .describe('The Storefront API version this project pins, `YYYY-MM`; absent or null means the service default.'),
  })
  .superRefine((body, ctx) => {
    if (body.override_mode === 'override' && !body.connection_id) {
      ctx.addIssue({ code: 'custom', path: ['connection_id'], message: 'is required when override_mode is override' });
    }
    if (body.override_mode !== 'override' && body.connection_id) {
      ctx.addIssue({ code: 'custom', path: ['connection_id'], message: 'is only allowed when override_mode is override' });
    }
  });

const settingsSchema = z
  .object({
    project_id: z.string(),
    override_mode: mode,
    connection_id: z.string().nullable(),
    storefront_api_version: z.string().nullable(),
    configured: z.boolean().describe('False until settings are saved; an unconfigured project inherits.'),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
  })
  .meta({ id: 'CommerceSettings' });

const toSettingsJson = (projectId: string, row: ProjectSettingsRow | undefined): z.infer<typeof settingsSchema> => ({
  project_id: projectId,
  override_mode: row?.override_mode ?? 'inherit',
  connection_id: row?.connection_id ?? null,
  storefront_api_version: row?.storefront_api_version ?? null,
  configured: Boolean(row),
  created_at: iso(row?.created_at ?? null),
  updated_at: iso(row?.updated_at ?? null),
});

/** Per-project bindings: which shop a project uses. */
export function bindingRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'put',
        path: '/api/commerce/projects/{projectId}/settings',
        operationId: 'putProjectCommerceSettings',
        tags,
        auth: { kind: 'session', roles: ['owner', 'admin'] },
        summary: 'Bind a project: inherit the account default, override with its own connection, or disable.',
        description: docs.PUT_SETTINGS,
        params,
        body: settingsBody,
        responses: { 200: { description: 'The settings', schema: settingsSchema } },
        errors: [
          projectNotFoundError,
          {
            status: 400,
            code: 'invalid_reference',
            description: '`connection_id` names no connection of your account (`field: connection_id`). Nothing is written.',
          },
        ],
      },
      async ({ params, body, auth, deps }) => {
        const row = await putProjectSettings(deps.db, accountOf(auth), params.projectId, {
          override_mode: body.override_mode,
          connection_id: body.connection_id ?? null,
          storefront_api_version: body.storefront_api_version ?? null,
        });
        return { body: toSettingsJson(params.projectId, row) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/commerce/projects/{projectId}/settings',
        operationId: 'getProjectCommerceSettings',
        tags,
        auth: { kind: 'session' },
        summary: "Read a project's commerce settings.",
        description: 'A project without saved settings answers the defaults (`inherit`, `configured: false`).',
        params,
        responses: { 200: { description: 'The settings', schema: settingsSchema } },
        errors: [projectNotFoundError],
      },
      async ({ params, auth, deps }) => {
        const row = await getProjectSettings(deps.db, accountOf(auth), params.projectId);
        return { body: toSettingsJson(params.projectId, row) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/commerce/projects/{projectId}/connection',
        operationId: 'getProjectCommerceConnection',
        tags,
        auth: { kind: 'session' },
        summary: 'The connection a project resolves to.',
        description: docs.CONNECTION,
        params,
        responses: {
          200: {
            description: 'The resolution',
            schema: z.object({
              mode,
              connection: connectionSchema.nullable(),
              reason: z.enum(['disabled', 'no_default_connection', 'connection_disconnected']).nullable(),
            }),
          },
        },
        errors: [projectNotFoundError],
      },
      async ({ params, auth, deps }) => {
        const resolved = await resolveProjectConnection(deps.db, accountOf(auth), params.projectId);
        return {
          body: {
            mode: resolved.mode,
            connection: resolved.connection ? toConnectionJson(resolved.connection) : null,
            reason: resolved.reason,
          },
        };
      },
    ),
  ];
}
