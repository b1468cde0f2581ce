import type { RouteDef } from '../../http/route';
import { avatarRoutes } from './avatarRoutes';
import { gridRoutes } from './gridRoutes';
import { journeyRoutes } from './journeyRoutes';

/** Customer avatars, journey maps and before/after grids: dashboard routes and their agent twins. */
export function groundingRoutes(): RouteDef[] {
  return [...avatarRoutes(), ...journeyRoutes(), ...gridRoutes()];
}
