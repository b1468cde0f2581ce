import type { AuthContext } from '../../auth/types';
import type { Knex } from '../../db/knex';

const WORKFLOW_LABEL = /^workflow:[A-Za-z0-9._-]{1,200}:[A-Za-z0-9._-]{1,200}$/;

/**
 * The audit actor of an operation-route caller: `agent:<key name>` for an agent key, `user:<id>` for a session.
 * X-Agent-Actor-Label is honoured only for the service secret (already compared in constant time by authenticate)
 * and only as `workflow:<workflowId>:<runId>`; any other caller or shape is ignored, never an error.
 */
export async function actorOf(db: Knex, auth: AuthContext, label: string | undefined): Promise<string> {
  if (auth.kind === 'agent') {
    const key = await db('agent_keys').where({ id: auth.keyId, account_id: auth.accountId }).first('name');
    return `agent:${key?.name ?? auth.keyId}`;
  }
  if (auth.kind === 'session') return `user:${auth.userId}`;
  if (auth.kind === 'agentSecret' && label && WORKFLOW_LABEL.test(label)) return label;
  return 'agent:service';
}
