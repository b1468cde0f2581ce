import type { RouteDef } from '../../src/http/route';

/** Routes mounted only in tests, to drive shared machinery (e.g. the start-and-wait helper) through real HTTP. */
export function testRoutes(): RouteDef[] {
  return [];
}
