import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { call } from '../helpers/http';

export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

export const uniqueEmail = (prefix = 'person') => `${prefix}-${randomBytes(4).toString('hex')}@example.test`;

export async function createContact(token: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/crm/contacts', { token, body: { name: 'Ada Lovelace', email: uniqueEmail(), ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export async function stages(
  token: string,
): Promise<Array<{ id: string; name: string; kind: string; position: number; contactCount: number; dealCount: number }>> {
  const res = await call('GET', '/api/crm/pipeline/stages', { token });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

export async function stageOfKind(token: string, kind: 'open' | 'won' | 'lost') {
  const stage = (await stages(token)).find((s) => s.kind === kind);
  assert.ok(stage, `no ${kind} stage`);
  return stage;
}

/** Asserts a 400 that names `path` among its failing fields. */
export function assertFieldError(res: { status: number; body: any; text: string }, path: string, code = 'validation_failed') {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, code, res.text);
  assert.ok(
    res.body.errors.some((e: { path: string }) => e.path === path),
    `expected an error on ${path}: ${res.text}`,
  );
}
