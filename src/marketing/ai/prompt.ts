import type { ToolChatMessage } from '../../clients/providers/chatTools';

export interface PromptFacts {
  department: string;
  /** The pinned project, when the session has one. */
  project: { id: string; name: string } | null;
  /** Earlier turns of the session, oldest first (the window). */
  history: Array<{ message: string; response: string | null; status: string }>;
  /** Earlier turns the window leaves out. */
  omitted: number;
}

/**
 * The system prompt of a department chat: who it works for, the pin, and the rules of its tools. Tool arguments and
 * answers are never in it; they travel as the protocol's tool messages.
 */
export function systemPrompt(f: PromptFacts): string {
  const lines = [
    `You are the ${f.department} department assistant of a business workspace. Work through the tools you are given; never invent results.`,
    'Tools named platform_<action> act on the connected site platform through the same checks as the API; content_<verb> tools read and edit the marketing content.',
    'Some write operations need the user to confirm them: call them normally; the user is asked before they run, and the tool answer tells you whether they ran.',
  ];
  if (f.project)
    lines.push(`This chat is pinned to the website project "${f.project.name}" (${f.project.id}): every site operation goes to its site.`);
  if (f.omitted > 0) lines.push(`${f.omitted} earlier turn(s) of this session are not shown.`);
  return lines.join('\n');
}

/** The chat history window as protocol messages: each earlier turn's message and its answer. */
export function historyMessages(history: PromptFacts['history']): ToolChatMessage[] {
  return history.flatMap((t) => [
    { role: 'user' as const, content: t.message },
    { role: 'assistant' as const, content: t.response ?? `(this turn ended ${t.status} without an answer)` },
  ]);
}
