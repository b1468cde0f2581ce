import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { route, type RouteDef } from '../http/route';
import { iso, isoTimestamp, requiredText } from '../http/fields';
import { idParams, refId } from '../http/ids';
import { listEnvelope, listEnvelopeSchema, pageQuery } from '../http/pagination';
import * as tasks from './taskService';
import type { TaskRow } from './taskStore';
import * as docs from './docs';

const tags = ['CRM'];
const auth = { kind: 'session' } as const;

const status = z.enum(['open', 'done']);

const createBody = z.strictObject({
  title: requiredText(500),
  contactId: refId().nullable().optional().describe('A contact of the account, or null.'),
  dueDate: isoTimestamp()
    .nullable()
    .optional()
    .describe('ISO 8601 timestamp with a zone (e.g. 2026-12-01T09:00:00Z); a date alone is 400.'),
  assignedTo: refId().nullable().optional().describe('A user id of the account, or null (unassigned).'),
});

const patchBody = z.strictObject({
  title: requiredText(500).optional(),
  contactId: refId().nullable().optional(),
  dueDate: isoTimestamp().nullable().optional(),
  assignedTo: refId().nullable().optional(),
  status: status.optional().describe('`done` stamps `completedAt`; `open` clears it.'),
});

const listQuery = z.strictObject({
  contactId: refId().optional().describe('Only tasks about this contact.'),
  assignedTo: refId().optional().describe('Only tasks assigned to this user.'),
  status: status.optional().describe('`open` or `done`; both when absent.'),
  dueBefore: isoTimestamp()
    .optional()
    .describe('Only tasks due strictly before this ISO 8601 timestamp (tasks without a due date never match).'),
  dueAfter: isoTimestamp().optional().describe('Only tasks due at or after this ISO 8601 timestamp.'),
  ...pageQuery,
});

const taskSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    contactId: z.string().nullable(),
    dueDate: z.string().nullable(),
    assignedTo: z.string().nullable(),
    status,
    completedAt: z.string().nullable(),
    createdBy: z.string().nullable().describe('The user who created the task.'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Task' });

const toTaskJson = (t: TaskRow): z.infer<typeof taskSchema> => ({
  id: t.id,
  title: t.title,
  contactId: t.contact_id,
  dueDate: iso(t.due_at),
  assignedTo: t.assigned_to,
  status: t.status,
  completedAt: iso(t.completed_at),
  createdBy: t.created_by,
  createdAt: t.created_at.toISOString(),
  updatedAt: t.updated_at.toISOString(),
});

const invalidRef = { status: 400, code: 'invalid_reference', description: docs.invalidReferenceError3 };
const notFound = { status: 404, code: 'task_not_found', description: 'No task with this id in your account (also for a malformed id).' };

export function taskRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/crm/tasks',
        operationId: 'listCrmTasks',
        tags,
        auth,
        summary: 'List tasks, soonest due first.',
        description: docs.listCrmTasksDescription,
        query: listQuery,
        responses: { 200: { description: 'A page of tasks', schema: listEnvelopeSchema(taskSchema) } },
      },
      async ({ query, auth, deps }) => {
        const { page, limit, ...filter } = query;
        const { rows, total } = await tasks.listTasks(deps.db, accountOf(auth), filter, { page, limit });
        return { body: listEnvelope(rows.map(toTaskJson), total, { page, limit }) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/crm/tasks',
        operationId: 'createCrmTask',
        tags,
        auth,
        idempotent: true,
        summary: 'Create a task.',
        description: docs.createCrmTaskDescription,
        body: createBody,
        responses: { 201: { description: 'The task', schema: taskSchema } },
        errors: [invalidRef],
      },
      async ({ body, auth, deps }) => {
        const userId = auth.kind === 'session' ? auth.userId : null;
        const row = await tasks.createTask(deps.db, accountOf(auth), body, userId);
        return { status: 201, body: toTaskJson(row) };
      },
    ),

    route(
      {
        method: 'patch',
        path: '/api/crm/tasks/{id}',
        operationId: 'updateCrmTask',
        tags,
        auth,
        summary: docs.updateCrmTaskSummary,
        description: docs.updateCrmTaskDescription,
        params: idParams,
        body: patchBody,
        responses: { 200: { description: 'The task', schema: taskSchema } },
        errors: [notFound, invalidRef],
      },
      async ({ params, body, auth, deps }) => {
        const row = await tasks.updateTask(deps.db, accountOf(auth), params.id, body);
        return { body: toTaskJson(row) };
      },
    ),
  ];
}
