import { authRoutes } from '../auth/routes';
import { commerceRoutes } from '../commerce/routes';
import { crmRoutes } from '../crm/routes';
import { cronRoutes } from '../cron/routes';
import { jobRoutes } from '../jobs/routes';
import { knowledgeRoutes } from '../knowledge/routes';
import { marketingRoutes } from '../marketing/routes';
import { researchRoutes } from '../research/routes';
import type { RouteDef } from './route';
import { systemRoutes } from './systemRoutes';

/** Every route of the API, area by area. `all` gives the OpenAPI document the complete list. */
export function apiRoutes(all: () => RouteDef[]): RouteDef[] {
  return [
    ...systemRoutes(all),
    ...authRoutes(),
    ...crmRoutes(),
    ...marketingRoutes(),
    ...knowledgeRoutes(),
    ...researchRoutes(),
    ...jobRoutes(), ...cronRoutes(),
    ...commerceRoutes(),
  ];
}
