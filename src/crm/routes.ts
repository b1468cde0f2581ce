import type { RouteDef } from '../http/route';
import { activityRoutes } from './activityRoutes';
import { contactRoutes } from './contactRoutes';
import { dealRoutes } from './dealRoutes';
import { pipelineRoutes } from './pipelineRoutes';
import { taskRoutes } from './taskRoutes';

/** Every CRM route; all take a user session token (any role). */
export function crmRoutes(): RouteDef[] {
  return [...contactRoutes(), ...activityRoutes(), ...pipelineRoutes(), ...taskRoutes(), ...dealRoutes()];
}
