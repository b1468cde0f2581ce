import type { RouteDef } from '../http/route';
import { appRoutes } from './app/routes';
import { bindingRoutes } from './bindings/routes';
import { connectionRoutes } from './connections/routes';
import { oauthRoutes } from './oauth/routes';
import { provisioningRoutes } from './provisioning/routes';
import { receiverRoutes } from './webhooks/routes';

/** Every commerce route: app registration, connect/OAuth callback, connections, project bindings, dev stores, webhooks. */
export function commerceRoutes(): RouteDef[] {
  return [...appRoutes(), ...oauthRoutes(), ...connectionRoutes(), ...bindingRoutes(), ...provisioningRoutes(), ...receiverRoutes()];
}
