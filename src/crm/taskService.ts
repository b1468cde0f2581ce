import { holdUserOfAccount } from '../auth/service';
import type { Knex } from '../db/knex';
import * as contactStore from './contactStore';
import { taskNotFound } from './errors';
import { invalidReference } from '../http/fieldErrors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import * as store from './taskStore';
import type { TaskFields, TaskFilter, TaskRow } from './taskStore';

export type { TaskRow };

export interface TaskInput {
  title?: string;
  contactId?: string | null;
  dueDate?: Date | null;
  assignedTo?: string | null;
  status?: store.TaskStatus;
}

/** Checks the ids a task references against the account (400 invalid_reference naming the field), and locks them. */
async function checkReferences(trx: Knex, accountId: string, input: TaskInput): Promise<void> {
  if (input.contactId && !(await contactStore.lockContact(trx, accountId, input.contactId))) throw invalidReference('contactId', 'contact');
  if (input.assignedTo && !(await holdUserOfAccount(trx, accountId, input.assignedTo))) throw invalidReference('assignedTo', 'user');
}

function columns(input: TaskInput): TaskFields {
  const fields: TaskFields = {};
  if (input.title !== undefined) fields.title = input.title;
  if (input.contactId !== undefined) fields.contact_id = input.contactId;
  if (input.dueDate !== undefined) fields.due_at = input.dueDate;
  if (input.assignedTo !== undefined) fields.assigned_to = input.assignedTo;
  if (input.status !== undefined) fields.status = input.status;
  return fields;
}

export async function listTasks(db: Knex, accountId: string, filter: TaskFilter, page: Page) {
  return store.listTasks(db, accountId, filter, page);
}

/** A new open task; `createdBy` is the user who asked (null for writers that are not a user). */
export async function createTask(
  db: Knex,
  accountId: string,
  input: Omit<TaskInput, 'status'> & { title: string },
  createdBy: string | null,
): Promise<TaskRow> {
  return db.transaction(async (trx) => {
    await checkReferences(trx, accountId, input);
    return store.insertTask(trx, accountId, { ...columns(input), status: 'open', created_by: createdBy });
  });
}

export async function updateTask(db: Knex, accountId: string, id: string, input: TaskInput): Promise<TaskRow> {
  if (!isUuid(id)) throw taskNotFound();
  return db.transaction(async (trx) => {
    const current = await store.findTask(trx, accountId, id);
    if (!current) throw taskNotFound();
    await checkReferences(trx, accountId, input);
    if (Object.keys(columns(input)).length === 0) return current;
    return (await store.updateTask(trx, accountId, id, columns(input)))!;
  });
}
