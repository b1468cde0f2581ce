import { randomBytes } from 'node:crypto';
import { PERMISSIONS } from '../../src/auth/permissions';
import { createAccount } from '../../src/auth/service';
import { loadConfig } from '../../src/config';
import type { AppDeps } from '../../src/deps';
import { createLogger } from '../../src/logger';
import { createContent } from '../../src/marketing/content/service';
import { systemPrompt } from '../../src/marketing/ai/prompt';
import { runTool, toolsFor, type ToolDeps } from '../../src/marketing/ai/tools';
import type { TurnCaller } from '../../src/marketing/ai/types';
import { createToolChatClient, type ToolChatMessage } from '../../src/clients/providers/chatTools';
import { startModelSimulator } from '../../src/sandbox/model';
import type { BenchEnv } from '../lib/env';
import type { ScenarioResult } from '../lib/report';
import { BENCH_HASH_KEY, startServers } from '../lib/servers';
import { summarize } from '../lib/stats';
import { startBenchWorker } from '../lib/worker';

const ROUNDS = 10;
const MODEL_MS = 200;

interface TurnAnswer {
  status: string;
  response: string | null;
  tool_calls: Array<{ name: string; status: string }>;
  events: Array<{ type: string; at: string }>;
  created_at: string;
  finished_at: string | null;
}

/**
 * A department AI chat turn with three tool calls (content_list, content_get, content_seo_check) and a model answering
 * after 200 ms: the start call `POST /api/agent/marketing/ai/turns` through our API (agent key, session and turn rows,
 * the `aiTurn` workflow on the product's worker in its own process: 4 model steps and 3 tool steps as activities, every
 * step stored, the start call waiting for the turn and answering 200 with it). The baseline, in the same run against
 * the same simulator and database: the same 4 model calls (same system prompt, tools, and growing messages) and the
 * same 3 tool calls through the same runner, made directly in sequence — no HTTP, no Temporal, nothing stored.
 * Goal: p99 ≤ 1.3×.
 */
export async function aiTurn(env: BenchEnv): Promise<ScenarioResult> {
  const model = await startModelSimulator();
  model.delayMs = MODEL_MS;
  const modelEnv = { MODEL_API_URL: model.url, MODEL_API_KEY: model.apiKey };
  const taskQueue = `bench-ai-turn-${randomBytes(4).toString('hex')}`;
  const worker = await startBenchWorker(env, taskQueue, modelEnv);
  const tag = randomBytes(4).toString('hex');
  const { account, agentKey, agentKeyRow } = await createAccount(env.db, BENCH_HASH_KEY, {
    name: 'Bench AI chats',
    ownerEmail: `owner-${tag}@example.com`,
    ownerName: 'Bench',
  });
  // The API alone matters here (the baseline runs in this process); the email-send bare handler is started beside it, unused.
  const servers = await startServers(env, 'email-send', account.id, {
    ...modelEnv,
    TEMPORAL_TASK_QUEUE: taskQueue,
    AI_TURN_WAIT_SECONDS: '60',
  });
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: env.databaseUrl, ...modelEnv });
  const chat = createToolChatClient(config)!;
  const toolDeps: ToolDeps = {
    db: env.db,
    config,
    logger: createLogger('warn'),
    secretHashKey: BENCH_HASH_KEY,
    temporal: { client: env.client, namespace: env.temporal.namespace, taskQueue },
  };
  for (let i = 0; i < 12; i++) {
    await createContent(
      { db: env.db } as AppDeps,
      account.id,
      {
        title: `Heat pump guide ${i}`,
        body: `<h2>Why heat pumps</h2><p>Owners compare running costs over every season of the year (${i}).</p>`,
        target_keyword: 'heat pump',
      },
      { type: 'system', id: null },
    );
  }
  const [item] = await env.db('content_items').where({ account_id: account.id }).orderBy('created_at').limit(1).select('id');
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [
    { name: 'content_list', args: { status: 'draft', limit: 10 } },
    { name: 'content_get', args: { content_id: item.id } },
    { name: 'content_seo_check', args: { content_id: item.id } },
  ];
  const message = [...calls.map((c) => `/tool ${c.name} ${JSON.stringify(c.args)}`), '/say done'].join('\n');

  // The turn's caller as the start call freezes it for this agent key.
  const caller: TurnCaller = {
    kind: 'agent',
    accountId: account.id,
    keyId: agentKeyRow.id,
    permissions: [...PERMISSIONS],
    readOnly: false,
  };
  const system = systemPrompt({ department: 'marketing', project: null, history: [], omitted: 0 });

  const ourTurn = async (): Promise<TurnAnswer> => {
    const res = await fetch(`${servers.urls.ours}/api/agent/marketing/ai/turns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agentKey}` },
      body: JSON.stringify({ message }),
    });
    const body = (await res.json()) as TurnAnswer;
    if (res.status !== 200 || body.status !== 'completed' || body.response !== 'done') {
      throw new Error(`the turn answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
    }
    return body;
  };
  // The same model steps and tool calls, made directly in sequence: the unavoidable work of the turn.
  const direct = async (): Promise<void> => {
    const tools = toolsFor(caller).map(({ name, description, parameters }) => ({ name, description, parameters }));
    const messages: ToolChatMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: message },
    ];
    for (let step = 0; ; step++) {
      const answer = await chat.step(messages, tools);
      if (answer.tool_calls.length === 0) {
        if (answer.content !== 'done') throw new Error(`the model answered ${answer.content}`);
        return;
      }
      messages.push({
        role: 'assistant',
        content: answer.content,
        tool_calls: answer.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      });
      for (const call of answer.tool_calls) {
        const outcome = await runTool(
          toolDeps,
          { caller, projectId: null, actor: 'bench', idempotencyKey: `bench:${step}:${call.id}`, confirmed: false },
          { id: call.id, name: call.name, arguments: JSON.parse(call.arguments) as Record<string, unknown> },
        );
        if (outcome.status !== 'ok') throw new Error(`${call.name} answered ${outcome.status}: ${outcome.content}`);
        messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content });
      }
    }
  };

  try {
    await ourTurn();
    await direct();
    const ours: number[] = [];
    const baseline: number[] = [];
    const notes: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let t0 = performance.now();
      await direct();
      baseline.push(performance.now() - t0);
      const sentAt = Date.now();
      t0 = performance.now();
      const turn = await ourTurn();
      ours.push(performance.now() - t0);
      const answeredAt = Date.now();
      const at = (type: string) => turn.events.filter((e) => e.type === type).map((e) => Date.parse(e.at));
      const created = Date.parse(turn.created_at);
      const done = at('done')[0];
      const started = at('tool_call_started');
      const finishedTools = at('tool_call_finished');
      notes.push(
        `round ${r + 1}: turn ${ours[r].toFixed(0)} ms, direct ${baseline[r].toFixed(0)} ms; ` +
          `sent→row ${created - sentAt} ms, tools started at +${started.map((t) => t - created).join('/+')} ms, ` +
          `finished at +${finishedTools.map((t) => t - created).join('/+')} ms, done at +${done - created} ms, answered at +${answeredAt - created} ms`,
      );
    }
    const sum = (xs: number[]) => xs.reduce((t, x) => t + x, 0);
    return {
      name: `ai-turn, a chat turn with three tool calls and a model answering in ${MODEL_MS} ms (${ROUNDS} rounds; start call to its 200)`,
      ours: summarize(ours, sum(ours), 0),
      baseline: summarize(baseline, sum(baseline), 0),
      baselineLabel: 'the same 4 model calls and 3 tool calls in sequence',
      compare: 'p99',
      goalRatio: 1.3,
      notes,
    };
  } finally {
    servers.stop();
    await worker.stop();
    await model.stop();
  }
}
