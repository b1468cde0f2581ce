import type { Knex } from '../db/knex';
import { offsetOf, type Page } from '../http/pagination';

export type TaskStatus = 'open' | 'done';

export interface TaskRow {
  id: string;
  account_id: string;
  title: string;
  contact_id: string | null;
  due_at: Date | null;
  assigned_to: string | null;
  status: TaskStatus;
  completed_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export type TaskFields = Partial<Pick<TaskRow, 'title' | 'contact_id' | 'due_at' | 'assigned_to' | 'status' | 'created_by'>>;

export interface TaskFilter {
  contactId?: string;
  assignedTo?: string;
  status?: TaskStatus;
  dueBefore?: Date;
  dueAfter?: Date;
}

function filteredTasks(db: Knex, accountId: string, f: TaskFilter): Knex.QueryBuilder {
  const q = db('crm_tasks').where('account_id', accountId);
  if (f.contactId) q.where('contact_id', f.contactId);
  if (f.assignedTo) q.where('assigned_to', f.assignedTo);
  if (f.status) q.where('status', f.status);
  if (f.dueBefore) q.where('due_at', '<', f.dueBefore);
  if (f.dueAfter) q.where('due_at', '>=', f.dueAfter);
  return q;
}

/** Soonest due first, tasks without a due date last, then newest. */
export async function listTasks(db: Knex, accountId: string, filter: TaskFilter, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    filteredTasks(db, accountId, filter)
      .select('*')
      .orderByRaw('due_at asc nulls last, created_at desc, id desc')
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<TaskRow[]>,
    filteredTasks(db, accountId, filter).count({ count: '*' }) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}

export async function findTask(db: Knex, accountId: string, id: string): Promise<TaskRow | undefined> {
  return db('crm_tasks').where({ account_id: accountId, id }).first();
}

export async function insertTask(db: Knex, accountId: string, fields: TaskFields): Promise<TaskRow> {
  const [row] = await db('crm_tasks')
    .insert({ account_id: accountId, ...fields })
    .returning('*');
  return row;
}

/** Updates a task; a status change stamps or clears completed_at. */
export async function updateTask(db: Knex, accountId: string, id: string, fields: TaskFields): Promise<TaskRow | undefined> {
  const changes: Record<string, unknown> = { ...fields, updated_at: db.fn.now() };
  if (fields.status === 'done') changes.completed_at = db.raw(`case when status = 'done' then completed_at else now() end`);
  if (fields.status === 'open') changes.completed_at = null;
  const [row] = await db('crm_tasks').where({ account_id: accountId, id }).update(changes).returning('*');
  return row;
}
