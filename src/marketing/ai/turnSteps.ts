import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { createToolChatClient, type ToolChatMessage } from '../../clients/providers/chatTools';
import { ProviderError } from '../../clients/providers/errors';
import { findOwnProject } from '../../projects/service';
import { historyMessages, systemPrompt } from './prompt';
import {
  appendEvent,
  countPreviousTurns,
  findSession,
  findTurn,
  notifyTurnStopped,
  previousTurns,
  touchTurn,
  updateTurn,
  type StoredToolCall,
  type TurnRow,
} from './store';
import { runTool, toolsFor, type ToolDeps } from './tools';
import type { DataUpdate, ToolCall, TurnCaller } from './types';

export type ModelStepAnswer = { kind: 'answer' } | { kind: 'tools'; calls: Array<{ id: string; name: string }> };
export type ToolStepStatus = 'ok' | 'error' | 'needs_confirmation' | 'declined';

/** Tool arguments shown in an event are cut to this many characters of JSON (an upload's bytes never fill the poll). */
const EVENT_ARGUMENTS_CHARS = 2_000;

const turnGone = () => new ApiError(404, 'turn_not_found', 'the turn no longer exists');

async function loadTurn(db: Knex, accountId: string, turnId: string): Promise<TurnRow> {
  const turn = await findTurn(db, accountId, turnId);
  if (!turn) throw turnGone();
  return turn;
}

const shown = (args: Record<string, unknown>) => {
  const text = JSON.stringify(args);
  return text.length <= EVENT_ARGUMENTS_CHARS ? args : { truncated: true, json: text.slice(0, EVENT_ARGUMENTS_CHARS) };
};

function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text || '{}');
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** What the last model step answered, read back from the transcript (an activity retry after the step was stored). */
function storedAnswer(turn: TurnRow): ModelStepAnswer {
  const last = turn.transcript.at(-1) as { role?: string; tool_calls?: Array<{ id: string; function: { name: string } }> } | undefined;
  if (last?.role === 'assistant' && last.tool_calls?.length) {
    return { kind: 'tools', calls: last.tool_calls.map((c) => ({ id: c.id, name: c.function.name })) };
  }
  return { kind: 'answer' };
}

/**
 * One model call of a turn: the system prompt, the session's history window, the user's message and the turn's
 * transcript so far, with the caller's tools. Stores the answer (text, or the tool calls with their arguments) and its
 * event; answers only ids and names. Step `step` is stored once: a retry after it was stored answers what it stored.
 */
export async function modelStep(
  deps: { db: Knex; config: Config },
  input: { accountId: string; turnId: string; step: number },
  signal?: AbortSignal,
): Promise<ModelStepAnswer> {
  const { db, config } = deps;
  const turn = await loadTurn(db, input.accountId, input.turnId);
  if (turn.steps > input.step) return storedAnswer(turn);
  const client = createToolChatClient(config);
  if (!client) throw new ProviderError('model', 'model_not_configured', 'no chat model is configured (MODEL_API_KEY)', false);
  // The prompt's facts are independent reads: side by side, so a step waits for one round trip, not four.
  const [session, project, history, earlier] = await Promise.all([
    findSession(db, input.accountId, turn.session_id),
    turn.project_id ? findOwnProject(db, input.accountId, turn.project_id) : undefined,
    previousTurns(db, input.accountId, turn.session_id, turn.created_at, config.AI_HISTORY_TURNS),
    countPreviousTurns(db, input.accountId, turn.session_id, turn.created_at),
  ]);
  const window = [...history].reverse();
  const messages: ToolChatMessage[] = [
    {
      role: 'system',
      content: systemPrompt({
        department: session?.department ?? 'marketing',
        project: project ? { id: project.id, name: project.name } : null,
        history: window,
        omitted: earlier - window.length,
      }),
    },
    ...historyMessages(window),
    { role: 'user', content: turn.message },
    ...(turn.transcript as ToolChatMessage[]),
  ];
  const tools = toolsFor(turn.caller as TurnCaller).map(({ name, description, parameters }) => ({ name, description, parameters }));
  const answer = await client.step(messages, tools, { signal });

  const text = answer.content && answer.content.trim() !== '' ? answer.content : null;
  if (answer.tool_calls.length === 0) {
    // The answer and its event in one transaction: a retry after the step was stored never lacks the event.
    await db.transaction(async (trx) => {
      await updateTurn(trx, input.accountId, input.turnId, {
        response: text ?? '',
        steps: input.step + 1,
        transcript: [...turn.transcript, { role: 'assistant', content: text ?? '' }],
      });
      await appendEvent(trx, input.accountId, input.turnId, { key: `message:${input.step}`, type: 'message', data: { text: text ?? '' } });
    });
    return { kind: 'answer' };
  }
  const taken = new Set(turn.tool_calls.map((c) => c.id));
  const calls = answer.tool_calls.map((c, i) => {
    // Call ids must be unique within the turn (a model may reuse one across steps): the tool message answers this id.
    const id = taken.has(c.id) ? `${c.id}_s${input.step}_${i}` : c.id;
    taken.add(id);
    return { id, name: c.name, raw: c.arguments, arguments: parseArguments(c.arguments) };
  });
  const stored: StoredToolCall[] = calls.map((c) => ({
    id: c.id,
    name: c.name,
    arguments: c.arguments ?? {},
    status: 'pending',
    http_status: null,
    ...(c.arguments === null ? { invalid_arguments: true } : {}),
  }));
  await db.transaction(async (trx) => {
    await updateTurn(trx, input.accountId, input.turnId, {
      steps: input.step + 1,
      tool_calls: [...turn.tool_calls, ...stored],
      transcript: [
        ...turn.transcript,
        {
          role: 'assistant',
          content: text,
          tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.raw } })),
        },
      ],
    });
    if (text) await appendEvent(trx, input.accountId, input.turnId, { key: `message:${input.step}`, type: 'message', data: { text } });
  });
  return { kind: 'tools', calls: calls.map(({ id, name }) => ({ id, name })) };
}

/**
 * One tool call of a turn, by id: runs it with the turn's caller, pin and audit actor (`actor`), stores the tool
 * message and its events. A confirm-gated call not confirmed yet runs nothing and answers `needs_confirmation`. A call
 * already answered answers its status again (an activity retry), and its write is replayed by its idempotency slot.
 */
export async function toolStep(
  deps: ToolDeps,
  input: { accountId: string; turnId: string; callId: string; confirmed: boolean; actor: string },
): Promise<{ status: ToolStepStatus }> {
  const { db } = deps;
  const turn = await loadTurn(db, input.accountId, input.turnId);
  const call = turn.tool_calls.find((c) => c.id === input.callId);
  if (!call) throw new ApiError(404, 'tool_call_not_found', 'the turn has no such tool call');
  if (call.status === 'ok' || call.status === 'error' || call.status === 'declined') return { status: call.status };
  if (call.status === 'needs_confirmation' && !input.confirmed) return { status: 'needs_confirmation' };

  await appendEvent(db, input.accountId, input.turnId, {
    key: `tool_started:${call.id}:${input.confirmed}`,
    type: 'tool_call_started',
    data: { call_id: call.id, name: call.name, arguments: shown(call.arguments), confirmed: input.confirmed },
  });
  const toolCall: ToolCall = { id: call.id, name: call.name, arguments: call.arguments };
  const outcome =
    'invalid_arguments' in call
      ? invalidArguments(call.name)
      : await runTool(
          deps,
          {
            caller: turn.caller as TurnCaller,
            projectId: turn.project_id,
            actor: input.actor,
            idempotencyKey: `ai-turn:${turn.id}:${call.id}`,
            confirmed: input.confirmed,
          },
          toolCall,
        );
  const calls = (status: StoredToolCall['status'], httpStatus: number) =>
    turn.tool_calls.map((c) => (c.id === call.id ? { ...c, status, http_status: httpStatus } : c));

  if (outcome.status === 'needs_confirmation') {
    await updateTurn(db, input.accountId, input.turnId, {
      tool_calls: calls('needs_confirmation', 412),
      pending_call: { call_id: call.id, name: call.name, arguments: shown(call.arguments), reason: outcome.content },
    });
    return { status: 'needs_confirmation' };
  }
  // The answer and its events in one transaction: a retry that finds the call answered never lacks its events.
  await db.transaction(async (trx) => {
    await updateTurn(trx, input.accountId, input.turnId, {
      tool_calls: calls(outcome.status, outcome.http_status),
      data_updates: [...turn.data_updates, ...outcome.data_updates],
      transcript: [...turn.transcript, { role: 'tool', tool_call_id: call.id, content: outcome.content }],
    });
    await appendEvent(trx, input.accountId, input.turnId, {
      key: `tool_finished:${call.id}`,
      type: 'tool_call_finished',
      data: { call_id: call.id, name: call.name, status: outcome.status, http_status: outcome.http_status, truncated: outcome.truncated },
    });
    for (const [i, update] of outcome.data_updates.entries()) {
      await appendEvent(trx, input.accountId, input.turnId, {
        key: `data_update:${call.id}:${i}`,
        type: 'data_update',
        data: update as DataUpdate & Record<string, unknown>,
      });
    }
  });
  return { status: outcome.status };
}

function invalidArguments(name: string) {
  const content = JSON.stringify({
    code: 'invalid_tool_arguments',
    message: `the arguments of ${name} are not a JSON object; nothing ran`,
  });
  return { status: 'error' as const, http_status: 400, content, truncated: false, data_updates: [] as DataUpdate[] };
}

export type TurnStateChange = { kind: 'awaiting_confirmation'; callId: string } | { kind: 'resumed'; callId: string; approve: boolean };

/** The turn waits for the user's confirmation of a call, or goes on after it (declined: the call is answered as declined). */
export async function turnState(db: Knex, input: { accountId: string; turnId: string; change: TurnStateChange }): Promise<void> {
  const turn = await loadTurn(db, input.accountId, input.turnId);
  const { change } = input;
  const call = turn.tool_calls.find((c) => c.id === change.callId);
  if (change.kind === 'awaiting_confirmation') {
    await updateTurn(db, input.accountId, input.turnId, { status: 'awaiting_confirmation' });
    await appendEvent(db, input.accountId, input.turnId, {
      key: `awaiting:${change.callId}`,
      type: 'awaiting_confirmation',
      data: { call_id: change.callId, name: call?.name ?? null, arguments: call ? shown(call.arguments) : null },
    });
    await notifyTurnStopped(db, input.turnId);
    return;
  }
  const declined = !change.approve && call && call.status === 'needs_confirmation';
  await updateTurn(db, input.accountId, input.turnId, {
    status: 'running',
    pending_call: null,
    ...(declined
      ? {
          tool_calls: turn.tool_calls.map((c) => (c.id === change.callId ? { ...c, status: 'declined', http_status: null } : c)),
          transcript: [
            ...turn.transcript,
            {
              role: 'tool',
              tool_call_id: change.callId,
              content: JSON.stringify({ declined: true, message: 'The user declined this call; it did not run.' }),
            },
          ],
        }
      : {}),
  });
  await appendEvent(db, input.accountId, input.turnId, {
    key: `confirmation:${change.callId}`,
    type: 'confirmation',
    data: { call_id: change.callId, approved: change.approve },
  });
}

/** The turn's end: its status, the code it failed with, and the closing `done` event (recorded once). */
export async function finishTurn(
  db: Knex,
  input: { accountId: string; turnId: string; status: 'completed' | 'failed' | 'cancelled'; code?: string },
): Promise<void> {
  const turn = await findTurn(db, input.accountId, input.turnId);
  if (!turn) return;
  // The end and its `done` event in one transaction: a poll that sees the turn finished sees its `done` too.
  await db.transaction(async (trx) => {
    if (turn.status === 'running' || turn.status === 'awaiting_confirmation') {
      await updateTurn(trx, input.accountId, input.turnId, {
        status: input.status,
        finished_at: new Date(),
        pending_call: null,
        error: input.code ? { code: input.code, message: FAILURES[input.code] ?? `the turn failed (${input.code})` } : null,
      });
    }
    await appendEvent(trx, input.accountId, input.turnId, {
      key: 'done',
      type: 'done',
      data: { status: input.status, ...(input.code ? { code: input.code } : {}) },
    });
    await notifyTurnStopped(trx, input.turnId);
  });
}

const FAILURES: Record<string, string> = {
  turn_timed_out: 'the turn ran past its bound (AI_TURN_MAX_SECONDS)',
  too_many_steps: 'the model asked for tools more times than a turn allows (AI_TURN_MAX_STEPS)',
  confirmation_timed_out: 'no confirmation came before the turn reached its bound',
  model_not_configured: 'no chat model is configured (MODEL_API_KEY)',
};

/** Marks the turn alive: its worker is still working on it (the poll's `stale` reads this). */
export function markTurnAlive(db: Knex, accountId: string, turnId: string): Promise<void> {
  return touchTurn(db, accountId, turnId);
}
