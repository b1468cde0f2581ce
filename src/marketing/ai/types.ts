import type { Permission } from '../../auth/permissions';

/**
 * Who a turn acts for: the caller of the start call, frozen when the turn starts. The turn's tools are what this
 * caller may do (a read-only agent key's chat sees read tools only; an agent key's permissions gate the content tools).
 */
export type TurnCaller =
  | { kind: 'agent'; accountId: string; keyId: string; permissions: Permission[]; readOnly: boolean }
  | { kind: 'session'; accountId: string; userId: string };

/** A tool offered to the model: one `platform_<action>` registry operation, or a content tool an editor needs. */
export interface ToolDef {
  /** `platform_<action>` or `content_<verb>`; at most 64 characters of `[a-zA-Z0-9_-]` (the protocol's rule). */
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 subset the chat-completions `tools` parameter takes) of the arguments object. */
  parameters: Record<string, unknown>;
  /** read: changes nothing; write: changes something (a read-only caller is never offered one). */
  kind: 'read' | 'write';
  /** The user must confirm the call before it runs (the model cannot confirm on its own). */
  confirmGated: boolean;
  family: 'platform' | 'content';
}

/** One tool call the model asked for. */
export interface ToolCall {
  /** The model's call id (`call_…`), unique within the turn. */
  id: string;
  name: string;
  /** The parsed arguments object (a call whose arguments are not a JSON object is answered as a 400 tool error). */
  arguments: Record<string, unknown>;
}

/** An object a tool call changed, named for the turn's `data_updates`. */
export interface DataUpdate {
  /** e.g. `content_item`, `site_platform`, `job`. */
  type: string;
  /** The object's id (a content item id, a job id, the platform object's id when the answer names it). */
  id: string | null;
  /** e.g. `updated`, `created`, `deleted`, `started`, or the platform action's name. */
  action: string;
  /** The tool that changed it. */
  tool: string;
}

/** What running one tool call gave. */
export type ToolOutcome =
  | {
      status: 'ok' | 'error';
      /** The HTTP status the same call would get on its route (200 …, a coded 4xx). */
      http_status: number;
      /** The answer or the coded error body, as JSON text cut to at most 16,000 characters (`truncated` says so). */
      content: string;
      truncated: boolean;
      data_updates: DataUpdate[];
    }
  | {
      /** A confirm-gated operation the user has not confirmed: nothing ran. */
      status: 'needs_confirmation';
      http_status: 412;
      content: string;
      truncated: false;
      data_updates: [];
    };

/** Where a tool call runs: the turn's account, the pinned project (if any), the audit actor. */
export interface ToolContext {
  caller: TurnCaller;
  /** The session's pinned project: every platform call goes to that project's site binding. */
  projectId: string | null;
  /** `workflow:<workflowId>:<runId>` of the turn's run. */
  actor: string;
  /** Unique per call and stable across activity retries (`<turnId>:<callId>`): the idempotency key of writes. */
  idempotencyKey: string;
  /** Set only when the user confirmed this very call. */
  confirmed: boolean;
}
