import type { RouteAuth } from '../http/routeAuth';
import { accountOf, authenticate } from './authenticate';
import { authOpenApi } from './openApiAuth';
import type { AuthContext, AuthSpec } from './types';

// Routes declare an AuthSpec and their handlers receive an AuthContext; http/ learns these types from here.
declare module '../http/routeAuth' {
  interface RouteAuthTypes {
    spec: AuthSpec;
    context: AuthContext;
  }
}

/** The authentication of every route, handed to the http layer by the composition root. */
export const routeAuth: RouteAuth = { authenticate, accountOf, docs: authOpenApi };
