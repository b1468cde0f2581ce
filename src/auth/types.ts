import type { Permission } from './permissions';

export type Role = 'owner' | 'admin' | 'member';

/** Which credential a route takes. */
export type AuthSpec =
  | { kind: 'none' }
  | { kind: 'session'; roles?: Role[] }
  | { kind: 'agent'; permission?: Permission }
  | { kind: 'agentSecret' }
  | { kind: 'cron' };

export type AuthContext =
  | { kind: 'none' }
  | { kind: 'session'; accountId: string; userId: string; role: Role; sessionId: string }
  | { kind: 'agent'; accountId: string; keyId: string; permissions: Permission[]; readOnly: boolean }
  | { kind: 'agentSecret' }
  | { kind: 'cron' };

export type AccountAuth = Extract<AuthContext, { accountId: string }>;
