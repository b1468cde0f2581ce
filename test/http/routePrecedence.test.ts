import assert from 'node:assert/strict';
import { apiRoutes } from '../../src/app/routes';
import { literalPathsFirst } from '../../src/http/mount';
import type { RouteDef } from '../../src/http/route';

const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
const sample = (path: string) => path.replace(/\{[^}]+\}/g, 'x7f3a');
const matches = (template: string, path: string) =>
  new RegExp(
    `^${template
      .split('/')
      .map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  ).test(path);

function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('route precedence', () => {
  const table: RouteDef[] = apiRoutes(() => []);

  it('whatever order the route table lists routes in, every route answers its own paths: literal segments before parameters', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const mounted = literalPathsFirst(shuffled(table, seed));
      for (const route of table) {
        const path = sample(route.spec.path);
        const first = mounted.find((r) => r.spec.method === route.spec.method && matches(r.spec.path, path));
        assert.equal(
          shape(first!.spec.path),
          shape(route.spec.path),
          `with seed ${seed}, ${route.spec.method.toUpperCase()} ${path} is taken by ${first!.spec.path}`,
        );
      }
    }
  });

  it('a literal segment beats a parameter at the first place two paths differ, however many parameters each has', () => {
    const probe = (path: string) => ({ spec: { method: 'get', path } }) as RouteDef;
    const order = literalPathsFirst([probe('/a/{id}/b'), probe('/a/{id}/{x}/c'), probe('/a/lit/{x}'), probe('/a/{id}/b/{y}')]).map(
      (r) => r.spec.path,
    );
    assert.ok(order.indexOf('/a/lit/{x}') < order.indexOf('/a/{id}/b'));
    assert.ok(order.indexOf('/a/{id}/b/{y}') < order.indexOf('/a/{id}/{x}/c'));
  });
});
