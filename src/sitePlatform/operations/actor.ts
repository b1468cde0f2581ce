import { agentKeyName } from '../../auth/service';
import type { AuthContext } from '../../auth/types';
import type { Knex } from '../../db/knex';

// workflow:<workflowId>:<runId>. Workflow ids contain colons themselves (commerce-shop:<connectionId>), so the run id
// is the last segment and the workflow id everything between. The length cap bounds the regex's backtracking.
const WORKFLOW_LABEL = /^workflow:(?:[A-Za-z0-9._-]+:)*[A-Za-z0-9._-]+:[A-Za-z0-9._-]+$/;
const MAX_LABEL_LENGTH = 512;

/**
 * The audit actor of an operation-route caller: `agent:<key name>` for an agent key, `user:<id>` for a session.
 * X-Agent-Actor-Label is honoured only for the service secret (already compared in constant time by authenticate)
 * and only as `workflow:<workflowId>:<runId>` (the workflow id may contain colons; the run id is the last segment), at
 * most 512 characters; any other caller or shape is ignored, never an error.
 */
export async function actorOf(db: Knex, auth: AuthContext, label: string | undefined): Promise<string> {
  if (auth.kind === 'agent') {
    return `agent:${(await agentKeyName(db, auth.accountId, auth.keyId)) ?? auth.keyId}`;
  }
  if (auth.kind === 'session') return `user:${auth.userId}`;
  if (auth.kind === 'agentSecret' && label && label.length <= MAX_LABEL_LENGTH && WORKFLOW_LABEL.test(label)) return label;
  return 'agent:service';
}
