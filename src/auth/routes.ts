import type { RouteDef } from '../http/route';
import { keyRoutes } from './keyRoutes';
import { userRoutes } from './userRoutes';

/** Account and credential routes: the caller, users, sign-out, agent keys. */
export function authRoutes(): RouteDef[] {
  return [...userRoutes(), ...keyRoutes()];
}
