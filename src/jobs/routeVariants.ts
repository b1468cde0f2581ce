import type { AuthSpec } from '../auth/types';

/** The two doors to the job surface: sessions (`/api/jobs`) and agent keys (`/api/agent/jobs`). */
export interface JobRouteVariant {
  prefix: string;
  read: AuthSpec;
  write: AuthSpec;
  /** Minting a read-only job token is a read: a read-only agent key may do it. */
  mint: AuthSpec;
  op: (name: string) => string;
}

export const JOB_ROUTE_VARIANTS: JobRouteVariant[] = [
  { prefix: '/api/jobs', read: { kind: 'session' }, write: { kind: 'session' }, mint: { kind: 'session' }, op: (name) => name },
  {
    prefix: '/api/agent/jobs',
    read: { kind: 'agent', permission: 'jobs:read' },
    write: { kind: 'agent', permission: 'jobs:write' },
    mint: { kind: 'agent', permission: 'jobs:read', readOnlyMayPost: true },
    op: (name) => `agent${name[0].toUpperCase()}${name.slice(1)}`,
  },
];

export const JOB_TAGS = ['Jobs'];

export const jobNotFoundError = {
  status: 404,
  code: 'job_not_found',
  description: "No job with this id in the account (another account's job answers the same).",
};
