import { z } from 'zod';
import * as docs from './docs';

export const turnStatusSchema = z.enum(['running', 'awaiting_confirmation', 'completed', 'failed', 'cancelled']);

export const toolCallStatusSchema = z.enum(['pending', 'ok', 'error', 'needs_confirmation', 'declined']);

export const turnEventTypeSchema = z
  .enum(['message', 'tool_call_started', 'tool_call_finished', 'data_update', 'awaiting_confirmation', 'confirmation', 'done'])
  .describe('What happened; `data` carries its details.');

export const pendingCallSchema = z
  .object({ call_id: z.string(), name: z.string(), arguments: z.unknown(), reason: z.string() })
  .meta({ id: 'AiPendingCall' });

const eventSchema = z
  .object({
    seq: z.int(),
    type: turnEventTypeSchema,
    data: z.record(z.string(), z.unknown()),
    at: z.string(),
  })
  .meta({ id: 'AiTurnEvent' });

const toolCallSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: toolCallStatusSchema,
    http_status: z.int().nullable(),
  })
  .meta({ id: 'AiToolCall' });

/** A turn of a department chat as the API shows it: its state and the events after the poll's `since_seq`. */
export const turnSchema = z
  .object({
    session_id: z.string(),
    turn_id: z.string(),
    job_id: z.string().describe('The turn as a job: GET /api/jobs/{job_id}; POST /api/jobs/{job_id}/cancel cancels the turn.'),
    project_id: z.string().nullable(),
    status: turnStatusSchema,
    stale: z.boolean().describe(docs.STALE),
    response: z.string().nullable().describe("The model's answer once the turn completed; null before."),
    tool_calls: z.array(toolCallSchema),
    data_updates: z.array(z.unknown()).describe('Objects the tool calls changed: { type, id, action, tool }.'),
    pending_call: pendingCallSchema
      .nullable()
      .describe('The confirm-gated call the turn waits on; confirm it with POST …/turns/{turnId}/confirm.'),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    events: z.array(eventSchema),
    next_seq: z.int().describe('Send as since_seq on the next poll.'),
    has_more: z.boolean(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'AiTurn' });

export type TurnView = z.output<typeof turnSchema>;
export type TurnStatus = z.output<typeof turnStatusSchema>;
export type ToolCallStatus = z.output<typeof toolCallStatusSchema>;
export type TurnEventType = z.output<typeof turnEventTypeSchema>;
export type PendingCall = z.output<typeof pendingCallSchema>;
