import type { RouteDef } from '../../http/route';
import { contentItemRoutes } from './itemRoutes';
import { contentListRoutes } from './listRoutes';
import { contentVersionRoutes } from './versionRoutes';

/** Every route of marketing content items: list, create, get, update, delete, versions (dashboard and agent). */
export function contentRoutes(): RouteDef[] {
  return [...contentListRoutes(), ...contentItemRoutes(), ...contentVersionRoutes()];
}
