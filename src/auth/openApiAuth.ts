import type { ErrorSpec } from '../http/route';
import type { RouteAuthDocs } from '../http/routeAuth';
import type { AuthSpec } from './types';

const securitySchemes = {
  sessionToken: { type: 'http', scheme: 'bearer', description: 'User session token (`wys_…`) for dashboard routes.' },
  agentKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'Agent API key (`wyk_…`) for `/api/agent/...` routes; carries permissions and a read-only flag.',
  },
  agentSecret: { type: 'apiKey', in: 'header', name: 'x-agent-secret', description: 'Service agent secret for builder routes.' },
  cronSecret: { type: 'http', scheme: 'bearer', description: '`CRON_SECRET` for `/api/cron/*`; closed when unset.' },
  emailKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'Email API key (`svc_test_…` or `svc_live_…`) for `/v1/email/...` routes; each route names the scope it needs.',
  },
};

/** The route's security requirement; an email key lists the scope it needs (OpenAPI 3.1 allows role names there). */
function securityOf(auth: AuthSpec): Array<Record<string, string[]>> {
  switch (auth.kind) {
    case 'none':
      return [];
    case 'session':
      return [{ sessionToken: [] }];
    case 'agent':
      return [{ agentKey: [] }];
    case 'agentSecret':
      return [{ agentSecret: [] }];
    case 'sessionOrAgentSecret':
      return [{ sessionToken: [] }, { agentSecret: [] }];
    case 'cron':
      return [{ cronSecret: [] }];
    case 'emailKey':
      return [{ emailKey: [auth.scope] }];
  }
}

/** What `authenticate` can answer for a route of this credential, for its OpenAPI entry. */
function errorsOf(auth: AuthSpec): ErrorSpec[] {
  const errors: ErrorSpec[] = [];
  if (auth.kind === 'emailKey') {
    errors.push({
      status: 401,
      code: 'invalid_api_key | api_key_revoked | wrong_credential_kind',
      description:
        'No email API key, an invalid one, or a revoked one (also for a request in flight when its key is revoked); `wrong_credential_kind` for a valid credential of another kind (a session token, an agent key, a configured secret), its message naming the kind this route takes.',
    });
    errors.push({
      status: 403,
      code: 'missing_scope | ip_not_allowed',
      description: `The key lacks the scope ${auth.scope}, or the request comes from outside the key's IP allowlist.`,
    });
  } else if (auth.kind !== 'none') {
    errors.push({
      status: 401,
      code: 'missing_credentials | invalid_credentials | wrong_credential_kind',
      description:
        'No credential, or an invalid or revoked one; `wrong_credential_kind` for a valid credential of another kind (e.g. an agent key on a dashboard route), its message naming the kind this route takes.',
    });
  }
  if (auth.kind === 'agentSecret' || auth.kind === 'sessionOrAgentSecret')
    errors.push({ status: 401, code: 'agent_secret_unset', description: 'AGENT_SECRET is not configured: these routes are closed.' });
  if (auth.kind === 'cron')
    errors.push({ status: 401, code: 'cron_secret_unset', description: 'CRON_SECRET is not configured: cron routes are closed.' });
  if (auth.kind === 'session' && auth.roles)
    errors.push({ status: 403, code: 'forbidden_role', description: `Needs role ${auth.roles.join(' or ')}.` });
  if (auth.kind === 'agent' && (auth.permission || !auth.readOnlyMayPost))
    errors.push({
      status: 403,
      code: 'missing_permission | read_only_key',
      description: `Needs ${auth.permission ?? 'an agent key'}; read-only keys may only read.`,
    });
  return errors;
}

/** How the credentials of routes show in the OpenAPI document. */
export const authOpenApi: RouteAuthDocs = { securitySchemes, securityOf, errorsOf };
