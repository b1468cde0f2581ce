/** GET /token/introspect and GET /token/authorized_by. */
import { json, platformError } from '../http';
import type { Route } from '../router';

export const tokenRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/token\/introspect$/,
    handle: ({ token, state }) => {
      const authorization = {
        id: token.token.slice(0, 24),
        createdOn: token.createdOn,
        lastUsed: new Date(state.now()).toISOString(),
        grantType: token.kind === 'oauth' ? 'authorization_code' : 'client_credentials',
        rateLimit: token.rateLimit,
        scope: token.scopes.join(','),
        authorizedTo: {
          siteIds: token.siteIds,
          workspaceIds: token.workspaceIds,
          userIds: token.userId ? [token.userId] : [],
        },
      };
      const app = token.clientId ? state.apps.get(token.clientId) : undefined;
      // Site tokens carry no application object.
      if (!app) return json(200, { authorization });
      return json(200, {
        authorization,
        application: {
          id: app.clientId,
          description: 'Simulated data client',
          homepage: 'https://app.example.test',
          displayName: app.clientId,
        },
      });
    },
  },
  {
    method: 'GET',
    pattern: /^\/token\/authorized_by$/,
    scope: 'authorized_user:read',
    handle: ({ token, state }) => {
      if (!token.userId) return platformError(403, 'forbidden', 'This token has no authorizing user');
      const { id, email, firstName, lastName } = state.user;
      return json(200, { id, email, firstName, lastName });
    },
  },
];
