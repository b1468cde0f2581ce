import { authenticateAgentKey } from '../../../src/auth/service';
import type { Permission } from '../../../src/auth/permissions';
import { PERMISSIONS } from '../../../src/auth/permissions';
import type { ToolDeps } from '../../../src/marketing/ai/tools';
import type { ToolCall, ToolContext, TurnCaller, ToolOutcome } from '../../../src/marketing/ai/types';
import { newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import type { SiteWorld } from '../../sitePlatform/connections/fixtures';

/** Tool deps whose site platform URLs and token key are the world's (as an activity on that app's worker would have). */
export function toolDepsOf(world: SiteWorld): ToolDeps {
  const { deps } = harness();
  return {
    db: deps.db,
    logger: deps.logger,
    temporal: deps.temporal,
    secretHashKey: deps.secretHashKey,
    config: { ...deps.config, ...world.config },
  };
}

/** A turn caller acting as a fresh agent key of the account. */
export async function agentCaller(accountId: string, permissions: Permission[] = [...PERMISSIONS], readOnly = false): Promise<TurnCaller> {
  const { deps } = harness();
  const auth = await authenticateAgentKey(deps.db, deps.secretHashKey, await newAgentKey(accountId, permissions, readOnly));
  if (auth?.kind !== 'agent') throw new Error('the new agent key did not authenticate');
  return { kind: 'agent', accountId, keyId: auth.keyId, permissions: auth.permissions, readOnly: auth.readOnly };
}

export const sessionCaller = (account: TestAccount): TurnCaller => ({
  kind: 'session',
  accountId: account.accountId,
  userId: account.ownerId,
});

let calls = 0;

/** A context with a fresh call id (and so a fresh idempotency key) unless one is given. */
export function contextOf(caller: TurnCaller, extra: Partial<ToolContext> = {}): ToolContext {
  calls += 1;
  return {
    caller,
    projectId: null,
    actor: 'workflow:ai-turn:acct:turn-1:run-1',
    idempotencyKey: `turn-test:${process.pid}:${Date.now()}:${calls}`,
    confirmed: false,
    ...extra,
  };
}

export const toolCall = (name: string, args: Record<string, unknown>): ToolCall => ({ id: `call_${name}`, name, arguments: args });

export const bodyOf = (outcome: ToolOutcome): any => JSON.parse(outcome.content);
