import { createHash } from 'node:crypto';
import {
  chatCompletion,
  textCompletion,
  type ChatMessage,
  type ChatRequest,
  type Invalid,
  type Override,
  type ToolCallOut,
} from './completion';

/*
 * Tool calling as OpenAI's chat-completions protocol has it: the checks that make a real provider answer 400, and
 * deterministic answers scripted by the newest user message:
 *   /tool <name> <json object>   one call; calls are made one per step, in order, until each has a tool message
 *   /parallel                    all pending calls in one step
 *   /say <text>                  the final answer's text (else "Done." and one line per answered call)
 * A message without a directive is answered "You said: <message>" at once.
 */

const MAX_TOOLS = 128;
const NAME = /^[a-zA-Z0-9_-]+$/;
const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

/** Whether the request takes part in tool calling: it offers tools or carries tool calls and their answers. */
export function usesTools(request: ChatRequest): boolean {
  return request.tools !== undefined || request.messages.some((m) => m.role === 'tool' || m.tool_calls !== undefined);
}

/** Why OpenAI would refuse the tool parts of a request (400), or undefined. */
export function invalidToolUse(request: ChatRequest): Invalid | undefined {
  return invalidTools(request.tools) ?? invalidToolChoice(request) ?? invalidMessages(request.messages);
}

function invalidTools(tools: unknown): Invalid | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return wrongType('tools', 'an array', tools);
  if (tools.length === 0)
    return refuse("Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'tools');
  if (tools.length > MAX_TOOLS) {
    const message = `Invalid 'tools': array too long. Expected an array with maximum length ${MAX_TOOLS}, but got an array with length ${tools.length} instead.`;
    return refuse(message, 'tools');
  }
  for (const [i, tool] of tools.entries()) {
    const invalid = invalidTool(tool, `tools[${i}]`);
    if (invalid) return invalid;
  }
  return undefined;
}

function invalidTool(tool: unknown, at: string): Invalid | undefined {
  if (!isObject(tool)) return wrongType(at, 'an object', tool);
  if (tool.type === undefined) return missing(`${at}.type`);
  if (tool.type !== 'function') return refuse(`Invalid value: '${String(tool.type)}'. Supported values are: 'function'.`, `${at}.type`);
  const fn = tool.function;
  if (fn === undefined) return missing(`${at}.function`);
  if (!isObject(fn)) return wrongType(`${at}.function`, 'an object', fn);
  return invalidName(fn.name, `${at}.function.name`) ?? invalidSchema(fn, `${at}.function`);
}

function invalidName(name: unknown, at: string): Invalid | undefined {
  if (name === undefined) return missing(at);
  if (typeof name !== 'string') return wrongType(at, 'a string', name);
  if (name.length === 0)
    return refuse(`Invalid '${at}': empty string. Expected a string with minimum length 1, but got an empty string instead.`, at);
  if (name.length > 64) {
    const message = `Invalid '${at}': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`;
    return refuse(message, at);
  }
  if (!NAME.test(name))
    return refuse(`Invalid '${at}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, at);
  return undefined;
}

function invalidSchema(fn: Record<string, unknown>, at: string): Invalid | undefined {
  if (fn.description !== undefined && typeof fn.description !== 'string') return wrongType(`${at}.description`, 'a string', fn.description);
  const parameters = fn.parameters;
  if (parameters === undefined) return undefined;
  if (!isObject(parameters)) return wrongType(`${at}.parameters`, 'an object', parameters);
  // An empty schema means "no arguments"; any other must describe an object.
  if (Object.keys(parameters).length > 0 && parameters.type !== 'object') {
    const message = `Invalid schema for function '${String(fn.name)}': schema must be a JSON Schema of 'type: "object"', got 'type: "${String(parameters.type ?? 'None')}"'.`;
    return refuse(message, `${at}.parameters`);
  }
  return undefined;
}

function invalidToolChoice(request: ChatRequest): Invalid | undefined {
  const choice = request.tool_choice;
  if (choice === undefined) return undefined;
  if (request.tools === undefined)
    return refuse("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice');
  if (typeof choice === 'string') {
    if (['none', 'auto', 'required'].includes(choice)) return undefined;
    return refuse(`Invalid value: '${choice}'. Supported values are: 'none', 'auto', and 'required'.`, 'tool_choice');
  }
  const name = isObject(choice) && choice.type === 'function' && isObject(choice.function) ? choice.function.name : undefined;
  if (typeof name !== 'string')
    return refuse("Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or a function.", 'tool_choice');
  if (!request.tools.some((t) => t.function.name === name))
    return refuse(`Invalid value for 'tool_choice': function '${name}' is not among the provided tools.`, 'tool_choice');
  return undefined;
}

/** Roles, the assistant's tool_calls, and tool messages that answer exactly the calls of the assistant message before them. */
function invalidMessages(messages: ChatMessage[]): Invalid | undefined {
  let open: { at: number; ids: Set<string> } | undefined;
  for (const [i, m] of messages.entries()) {
    if (!ROLES.includes(m.role)) {
      const message = `Invalid value: '${m.role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`;
      return refuse(message, `messages[${i}].role`);
    }
    if (m.role === 'tool') {
      const invalid = invalidToolMessage(m, i, open?.ids);
      if (invalid) return invalid;
      open!.ids.delete(m.tool_call_id!);
      continue;
    }
    if (open && open.ids.size > 0) return unanswered(open.at, open.ids);
    open = undefined;
    if (m.role === 'assistant' && m.tool_calls !== undefined) {
      const invalid = invalidToolCalls(m.tool_calls, `messages[${i}].tool_calls`);
      if (invalid) return invalid;
      open = { at: i, ids: new Set(m.tool_calls.map((c) => c.id)) };
    }
  }
  return open && open.ids.size > 0 ? unanswered(open.at, open.ids) : undefined;
}

function invalidToolMessage(m: ChatMessage, i: number, open: Set<string> | undefined): Invalid | undefined {
  if (m.tool_call_id === undefined) return missing(`messages[${i}].tool_call_id`);
  if (typeof m.tool_call_id !== 'string') return wrongType(`messages[${i}].tool_call_id`, 'a string', m.tool_call_id);
  if (!open) {
    const message = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
    return refuse(message, `messages.[${i}].role`);
  }
  if (!open.has(m.tool_call_id)) {
    const message = `Invalid parameter: 'tool_call_id' of '${m.tool_call_id}' not found in 'tool_calls' of previous message.`;
    return refuse(message, `messages.[${i}].tool_call_id`);
  }
  return undefined;
}

function invalidToolCalls(calls: unknown, at: string): Invalid | undefined {
  if (!Array.isArray(calls)) return wrongType(at, 'an array', calls);
  if (calls.length === 0)
    return refuse(`Invalid '${at}': empty array. Expected an array with minimum length 1, but got an empty array instead.`, at);
  for (const [j, call] of calls.entries()) {
    const here = `${at}[${j}]`;
    if (!isObject(call)) return wrongType(here, 'an object', call);
    if (typeof call.id !== 'string') return call.id === undefined ? missing(`${here}.id`) : wrongType(`${here}.id`, 'a string', call.id);
    if (call.type !== 'function') return refuse(`Invalid value: '${String(call.type)}'. Supported values are: 'function'.`, `${here}.type`);
    if (!isObject(call.function)) return missing(`${here}.function`);
    if (typeof call.function.name !== 'string') return missing(`${here}.function.name`);
    if (typeof call.function.arguments !== 'string') return missing(`${here}.function.arguments`);
  }
  return undefined;
}

function unanswered(at: number, ids: Set<string>): Invalid {
  const message = `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...ids].join(', ')}`;
  return refuse(message, `messages.[${at}].role`);
}

const refuse = (message: string, param: string | null): Invalid => ({ message, param });
const missing = (at: string) => refuse(`Missing required parameter: '${at}'.`, at);
const wrongType = (at: string, expected: string, value: unknown) =>
  refuse(`Invalid type for '${at}': expected ${expected}, but got ${typeName(value)} instead.`, at);

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

interface Script {
  calls: ToolCallOut[];
  parallel: boolean;
  /** The /say lines, joined; null without one. */
  say: string | null;
  directive: boolean;
}

/** The directives of a user message; a `/tool` line whose arguments are not a JSON object is plain text. */
export function readScript(text: string): Script {
  const script: Script = { calls: [], parallel: false, say: null, directive: false };
  for (const line of text.split('\n').map((l) => l.trim())) {
    const tool = /^\/tool\s+([^\s{]+)\s*(.*)$/.exec(line);
    const args = tool ? argumentsOf(tool[2]) : undefined;
    if (tool && args !== undefined) {
      const index = script.calls.length;
      const hash = createHash('sha256').update(`${tool[1]}\0${args}`).digest('hex').slice(0, 12);
      script.calls.push({ id: `call_${index}_${hash}`, type: 'function', function: { name: tool[1], arguments: args } });
    } else if (line === '/parallel') script.parallel = true;
    else if (/^\/say(\s|$)/.test(line)) script.say = [script.say, line.slice(4).trim()].filter((s) => s !== null).join('\n');
    else continue;
    script.directive = true;
  }
  return script;
}

/** The JSON text of a `/tool` line's arguments (an absent one is `{}`), or undefined when it is not an object. */
function argumentsOf(text: string): string | undefined {
  if (!text) return '{}';
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? JSON.stringify(value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The answer to a tool request: the next scripted calls that the conversation has not answered and that are among the
 * offered tools (`finish_reason: 'tool_calls'`), or else the final text (`'stop'`).
 */
export function toolCompletion(request: ChatRequest, override: Override) {
  if (override && 'malformed' in override) {
    // A tool call without an id or a name, whose arguments are cut off: what a broken provider sends.
    const broken = [{ type: 'function', function: { arguments: '{"query": "unterminated' } }];
    return chatCompletion(request, { role: 'assistant', content: null, refusal: null, tool_calls: broken }, 'tool_calls');
  }
  if (override) return textCompletion(request, override.content);
  const last = request.messages.map((m) => m.role).lastIndexOf('user');
  const text = last >= 0 ? (request.messages[last].content ?? '') : '';
  const script = readScript(text);
  const answered = new Map<string, string>();
  for (const m of request.messages.slice(last + 1)) if (m.role === 'tool') answered.set(m.tool_call_id!, m.content ?? '');
  const offered = new Set((request.tools ?? []).map((t) => t.function.name));
  const pending = script.calls.filter((c) => offered.has(c.function.name) && !answered.has(c.id));
  if (pending.length > 0 && request.tool_choice !== 'none') {
    const calls = script.parallel ? pending : pending.slice(0, 1);
    return chatCompletion(request, { role: 'assistant', content: null, refusal: null, tool_calls: calls }, 'tool_calls');
  }
  if (!script.directive) return textCompletion(request, `You said: ${text}`, true);
  return textCompletion(request, finalText(script, answered, offered), true);
}

function finalText(script: Script, answered: Map<string, string>, offered: Set<string>): string {
  const lines =
    script.say !== null
      ? [script.say]
      : ['Done.', ...script.calls.filter((c) => answered.has(c.id)).map((c) => `${c.function.name}: ${answered.get(c.id)!.slice(0, 80)}`)];
  const missingTools = new Set(script.calls.map((c) => c.function.name).filter((name) => !offered.has(name)));
  return [...lines, ...[...missingTools].map((name) => `${name} is not available to you`)].join('\n');
}
