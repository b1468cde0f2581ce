import type { Permission } from './permissions';

export type Role = 'owner' | 'admin' | 'member';

/** What an email key may do (doc1): a key holds only the scopes it is given. */
export const EMAIL_SCOPES = [
  'email:send',
  'email:batch',
  'email:domains',
  'email:templates',
  'email:webhooks',
  'email:suppressions',
] as const;
export type EmailScope = (typeof EMAIL_SCOPES)[number];

/**
 * The email key a request authenticated with, as it is now: revoking the key (on any replica) flips `revoked`, so
 * a request in flight checks it before it sends or answers.
 */
export interface EmailKeyHandle {
  readonly id: string;
  readonly revoked: boolean;
}

/** Which credential a route takes. */
export type AuthSpec =
  | { kind: 'none' }
  | { kind: 'session'; roles?: Role[] }
  /**
   * `readOnlyMayPost`: the route's POSTs may carry reads (MCP's JSON-RPC), so a read-only key is let through and the
   * route refuses its writes itself.
   */
  | { kind: 'agent'; permission?: Permission; readOnlyMayPost?: boolean }
  | { kind: 'agentSecret' }
  /** A session bearer, or the service secret in x-agent-secret when that header is sent (dashboard routes workflows also call). */
  | { kind: 'sessionOrAgentSecret' }
  | { kind: 'cron' }
  | { kind: 'emailKey'; scope: EmailScope };

export type AuthContext =
  | { kind: 'none' }
  | { kind: 'session'; accountId: string; userId: string; role: Role; sessionId: string }
  | { kind: 'agent'; accountId: string; keyId: string; permissions: Permission[]; readOnly: boolean }
  /** A read-only token for one job (src/jobs/jobToken.ts), given by a route that takes one in place of its `auth`. */
  | { kind: 'jobToken'; accountId: string; jobId: string }
  | { kind: 'agentSecret' }
  | { kind: 'cron' }
  | { kind: 'emailKey'; accountId: string; keyId: string; environment: 'test' | 'live'; scopes: EmailScope[]; key: EmailKeyHandle };

export type AccountAuth = Extract<AuthContext, { accountId: string }>;
