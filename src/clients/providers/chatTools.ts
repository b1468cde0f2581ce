import { z } from 'zod';
import { badResponse, postChatCompletion, type ModelConfig } from './chatCompletions';

export type ToolChatMessage =
  | { role: 'system' | 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function the model may call; `parameters` is the JSON Schema of its arguments object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** One model step: either text (`finish_reason` 'stop' or 'length') or the tool calls it wants answered. */
export interface StepAnswer {
  content: string | null;
  /** `arguments` is the model's JSON text as sent: it may not parse (the caller answers such a call as an error). */
  tool_calls: Array<{ id: string; name: string; arguments: string }>;
  finish_reason: string | null;
}

export interface ToolChatClient {
  step(messages: ToolChatMessage[], tools: ToolSpec[], options?: { signal?: AbortSignal; maxTokens?: number }): Promise<StepAnswer>;
}

const toolCallSchema = z.object({
  id: z.string().optional(),
  type: z.string().optional(),
  function: z.object({ name: z.string().optional(), arguments: z.unknown().optional() }).optional(),
});

const stepSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          refusal: z.string().nullable().optional(),
          tool_calls: z.array(toolCallSchema).nullable().optional(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
});

/**
 * A tool-calling client of an OpenAI-compatible chat-completions API: one `step` is one request with the offered
 * `tools` (`tool_choice: 'auto'`, temperature 0). Null without MODEL_API_KEY. Same config, errors (ProviderError
 * provider 'model') and timeouts as chatCompletions.ts; it does not retry.
 */
export function createToolChatClient(config: ModelConfig): ToolChatClient | null {
  if (!config.MODEL_API_KEY) return null;
  return {
    async step(messages, tools, options = {}) {
      const body = {
        model: config.MODEL_CHAT_MODEL,
        messages,
        // The protocol refuses an empty `tools` array and a `tool_choice` without tools.
        ...(tools.length > 0
          ? {
              tools: tools.map((t) => ({
                type: 'function',
                function: { name: t.name, description: t.description, parameters: t.parameters },
              })),
              tool_choice: 'auto',
            }
          : {}),
        temperature: 0,
        ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
      };
      const answer = await postChatCompletion(config, body, options.signal);
      return readStep(answer.json, answer.status);
    },
  };
}

function readStep(json: unknown, status: number): StepAnswer {
  const parsed = stepSchema.safeParse(json);
  if (!parsed.success) throw badResponse('answered with a body that is not a chat completion', status);
  const { message, finish_reason } = parsed.data.choices[0];
  if (message.refusal) throw badResponse('refused the request', status);
  const calls = (message.tool_calls ?? []).filter((call) => call.type === 'function');
  const tool_calls = calls.map((call) => {
    const name = call.function?.name;
    if (!call.id || !name) throw badResponse('answered a tool call without an id or a name', status);
    return { id: call.id, name, arguments: argumentsText(call.function?.arguments, status) };
  });
  const content = message.content ?? null;
  if (content === null && tool_calls.length === 0) throw badResponse('answered with neither content nor tool calls', status);
  return { content, tool_calls, finish_reason: finish_reason ?? null };
}

/** The arguments as JSON text: OpenAI sends a string; some compatible servers send the object itself. */
function argumentsText(value: unknown, status: number): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '{}';
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value);
  throw badResponse('answered a tool call whose arguments are not text', status);
}
