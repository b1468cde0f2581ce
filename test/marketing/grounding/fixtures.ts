import assert from 'node:assert/strict';
import { call, type CallResult } from '../../helpers/http';

export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** Ids that name nothing: a missing uuid and malformed ones (a malformed path id answers 404 too). */
export const ABSENT_IDS = [MISSING_ID, 'not-a-uuid', '12345'];

/** Asserts a 400 that names `path` among its failing fields. */
export function assertFieldError(res: CallResult, path: string, code = 'validation_failed') {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, code, res.text);
  assert.ok(
    res.body.errors.some((e: { path: string }) => e.path === path),
    `expected an error on ${path}: ${res.text}`,
  );
}

export function assertError(res: CallResult, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.code, code, res.text);
}

/** POST `body` to a dashboard collection route and return the created object (asserting 201). */
export async function create(token: string, path: string, body: Record<string, unknown>) {
  const res = await call('POST', `/api/marketing/${path}`, { token, body });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

export const createAvatar = (token: string, body: Record<string, unknown> = {}) =>
  create(token, 'avatars', { name: 'Busy Practice Owner', ...body });

export const createJourney = (token: string, body: Record<string, unknown> = {}) =>
  create(token, 'journeys', {
    name: 'Buyer journey',
    stages: [{ name: 'Awareness' }, { name: 'Consideration' }, { name: 'Decision' }],
    ...body,
  });

export const createGrid = (token: string, body: Record<string, unknown> = {}) =>
  create(token, 'before-after-grids', { name: 'Invoicing results', ...body });
