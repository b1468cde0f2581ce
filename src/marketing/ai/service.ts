import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AccountAuth } from '../../auth/types';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { keyReused, requestFingerprint } from '../../jobs/start/fingerprint';
import { startRequestedJob, type JobRequest } from '../../jobs/start/kit';
import { createToolChatClient } from '../../clients/providers/chatTools';
import { requireOwnProject } from '../../projects/service';
import { jobId } from '../../temporal/jobIds';
import { withTemporal } from '../../temporal/rpc';
import { aiTurnConfirmSignal, aiTurnContract } from '../../../workflows/aiTurn.contract';
import { findSession, findTurn, findTurnView, insertSession, insertTurn, turnStatus } from './store';
import type { TurnCaller } from './types';
import type { TurnView } from './turnJson';
import { turnView } from './view';
import { turnWakeups } from './turnWakeups';

export const DEPARTMENTS = ['marketing'] as const;
export type Department = (typeof DEPARTMENTS)[number];

type Deps = Pick<AppDeps, 'db' | 'config' | 'temporal' | 'metrics' | 'logger'>;

export interface StartTurnRequest extends JobRequest {
  department: Department;
  message: string;
  sessionId: string | null;
  projectId: string | null;
}

/** The caller a turn acts for, frozen at its start. */
export function callerOf(auth: AccountAuth): TurnCaller {
  if (auth.kind === 'agent') {
    return { kind: 'agent', accountId: auth.accountId, keyId: auth.keyId, permissions: [...auth.permissions], readOnly: auth.readOnly };
  }
  if (auth.kind === 'session') return { kind: 'session', accountId: auth.accountId, userId: auth.userId };
  throw new ApiError(500, 'internal', 'department chats take a session or an agent key');
}

const actorLabel = (caller: TurnCaller) => (caller.kind === 'agent' ? `agent:${caller.keyId}` : `user:${caller.userId}`);

/** A turn id from an Idempotency-Key: the same account and key are the same turn (a UUID made from their hash). */
function turnIdOf(accountId: string, key: string | undefined): string {
  if (!key) return randomUUID();
  const h = createHash('sha256').update(`ai-turn\0${accountId}\0${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Starts a turn (a session is opened when none is named) and waits for it as the request's wait says
 * (AI_TURN_WAIT_SECONDS at most): answers the finished turn, or `{ done: false }` with what had arrived when it is
 * still running, waits for a confirmation, or the client asked for the answer at once. With an Idempotency-Key a
 * retry attaches to the same turn (the turn row is the key's record); another request under the key is 409.
 */
export async function startTurn(deps: Deps, auth: AccountAuth, req: StartTurnRequest): Promise<{ done: boolean; view: TurnView }> {
  const caller = callerOf(auth);
  const accountId = caller.accountId;
  if (!createToolChatClient(deps.config)) {
    throw new ApiError(503, 'ai_not_configured', 'no chat model is configured (MODEL_API_KEY); department chats cannot run');
  }
  const fingerprint = { message: req.message, session_id: req.sessionId, project_id: req.projectId };
  const hash = requestFingerprint(req, fingerprint);
  const turnId = turnIdOf(accountId, req.idempotencyKey);
  let turn = req.idempotencyKey ? await findTurn(deps.db, accountId, turnId) : undefined;
  if (turn && turn.request_hash !== hash) throw keyReused();
  if (!turn) {
    const session = await sessionFor(deps, caller, req);
    const inserted = await insertTurn(deps.db, {
      id: turnId,
      account_id: accountId,
      session_id: session.id,
      project_id: session.project_id,
      workflow_id: jobId(aiTurnContract.jobKind, accountId, turnId),
      request_hash: hash,
      message: req.message,
      caller,
    });
    if (!inserted.created && inserted.turn.request_hash !== hash) throw keyReused();
    turn = inserted.turn;
  }
  await startRequestedJob(deps, req, {
    contract: aiTurnContract,
    accountId,
    args: [{ accountId, turnId: turn.id, maxSeconds: deps.config.AI_TURN_MAX_SECONDS, maxSteps: deps.config.AI_TURN_MAX_STEPS }],
    fingerprint,
    ownKey: turn.id,
    searchAttributes: { ProjectId: turn.project_id ?? undefined },
  });
  const done = !req.wait.atOnce && (await waitForTurn(deps, accountId, turn.id, turn.workflow_id, req.wait.seconds * 1000));
  return { done, view: await readTurn(deps, accountId, turn.id, 0) };
}

async function sessionFor(deps: Deps, caller: TurnCaller, req: StartTurnRequest) {
  if (req.sessionId) {
    const session = await findSession(deps.db, caller.accountId, req.sessionId);
    if (!session || session.department !== req.department) throw new ApiError(404, 'session_not_found', 'no such chat session');
    if (req.projectId && session.project_id !== req.projectId) {
      throw new ApiError(409, 'session_project_mismatch', 'the session is pinned to another project (or to none); start a new session');
    }
    return session;
  }
  if (req.projectId) await requireOwnProject(deps.db, caller.accountId, req.projectId);
  return insertSession(deps.db, {
    account_id: caller.accountId,
    department: req.department,
    project_id: req.projectId,
    created_by: actorLabel(caller),
  });
}

/**
 * Waits until the turn is no longer running (done, failed, cancelled, or waiting for a confirmation) or `ms` pass.
 * The step that stops the turn announces it (`NOTIFY ai_turns`, src/marketing/ai/turnWakeups.ts), which wakes the wait
 * at once; the close of the turn's run wakes it too, and the row is polled (25 ms doubling to 250 ms) whatever happens
 * to either. A run that closed without writing its end (terminated) or a Temporal error leaves the poll to decide.
 */
async function waitForTurn(deps: Deps, accountId: string, turnId: string, workflowId: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  const stop = new AbortController();
  const { client } = deps.temporal;
  let closed = false;
  const runClosed = client
    .withAbortSignal(stop.signal, () => client.workflow.getHandle(workflowId).result())
    .catch(() => undefined)
    .then(() => void (closed = true));
  // Registered before the first read: an announcement between that read and the sleep still wakes it.
  const wakeups = turnWakeups(deps);
  let wake = wakeups.wait(turnId);
  try {
    for (let interval = 25; ; interval = Math.min(interval * 2, 250)) {
      const status = await turnStatus(deps.db, accountId, turnId);
      if (status !== 'running') return status !== 'awaiting_confirmation';
      if (Date.now() + interval > until) return false;
      const woken = wake.woken.then(() => true);
      if (await Promise.race([sleep(interval).then(() => false), woken, ...(closed ? [] : [runClosed.then(() => false)])])) {
        wake = wakeups.wait(turnId);
      }
    }
  } finally {
    wake.cancel();
    stop.abort();
  }
}

/** The turn as a poll answers it: its events after `sinceSeq`, its state, `stale`. Another account's turn is 404. */
export async function readTurn(deps: Deps, accountId: string, turnId: string, sinceSeq: number, limit?: number): Promise<TurnView> {
  const turn = await findTurnView(deps.db, accountId, turnId);
  if (!turn) throw new ApiError(404, 'turn_not_found', 'no such turn');
  return turnView(deps, turn, sinceSeq, limit);
}

/** The user's answer to the call the turn waits on: signals its workflow, which runs the call (approve) or skips it. */
export async function confirmCall(
  deps: Deps,
  accountId: string,
  turnId: string,
  answer: { callId: string; approve: boolean },
): Promise<TurnView> {
  const turn = await findTurnView(deps.db, accountId, turnId);
  if (!turn) throw new ApiError(404, 'turn_not_found', 'no such turn');
  const pending = turn.pending_call;
  if (turn.status !== 'awaiting_confirmation' || !pending) {
    throw new ApiError(409, 'turn_not_awaiting_confirmation', `the turn is ${turn.status}, not waiting for a confirmation`, {
      details: { turn_status: turn.status },
    });
  }
  if (pending.call_id !== answer.callId) {
    throw new ApiError(409, 'confirmation_mismatch', 'the turn waits for the confirmation of another call', {
      details: { pending_call_id: pending.call_id },
    });
  }
  const handle = deps.temporal.client.workflow.getHandle(turn.workflow_id);
  await withTemporal(deps.temporal.client, () => handle.signal(aiTurnConfirmSignal, { call_id: answer.callId, approve: answer.approve }));
  return readTurn(deps, accountId, turnId, 0);
}
