export const STALE =
  'True when the turn claims to be running but its workflow made no progress for AI_TURN_STALE_SECONDS (default 60: ' +
  'the steps mark progress every 5 s, model calls included), or its run is gone or closed (checked once the turn has ' +
  "been quiet 10 s). A stale turn recovers by itself when a worker picks its work up again (a killed worker's step is " +
  'retried elsewhere within 15 s); cancel it through its job otherwise.';

export const START = [
  'Starts a turn of the marketing department chat and waits for it up to AI_TURN_WAIT_SECONDS (default 110): a',
  'finished turn answers 200 with its response, tool calls, data updates and events; one still running, or waiting',
  'for the confirmation of a confirm-gated call, answers 202 with `session_id`, `turn_id` and the events that had',
  'arrived — poll `GET …/marketing/ai/turns/{turnId}?since_seq=N`. A turn is a job (`ai-turn:<account>:<turn>`,',
  'searchable by AccountId, JobKind and ProjectId) bounded at AI_TURN_MAX_SECONDS (default 1,200); cancel it with',
  '`POST /api/jobs/{job_id}/cancel`. It loops model call → tool calls → model call until the model answers (at most',
  'AI_TURN_MAX_STEPS model calls). Tools: the 111 `platform_<action>` operations through the same runner and gates as',
  'the agent operation route (audit actor `workflow:<workflowId>:<runId>`), and the content tools (list, read and',
  "update items, SEO check, images preview and run, research). The turn acts with the caller's permissions: a read-only",
  "key's chat is offered read tools only. A confirm-gated operation never runs on the model's word: the turn stops in",
  '`awaiting_confirmation` with `pending_call` until POST …/turns/{turnId}/confirm answers it. A session pinned to a',
  "project (`project_id` on its first turn) sends every site operation to that project's site. History: the session's",
  'last AI_HISTORY_TURNS turns (message and answer) go to the model; older ones are counted, not sent. With an',
  'Idempotency-Key a retried start attaches to the same turn.',
].join(' ');

export const POLL = [
  'The events of the turn after `since_seq` (seq increases by one per event: message, tool_call_started,',
  'tool_call_finished, data_update, awaiting_confirmation, confirmation, done), its status, `stale`, and once done',
  "its `response`, `tool_calls` and `data_updates`. Another account's turn is 404. Writes nothing.",
].join(' ');

export const CONFIRM = [
  'Answers the confirm-gated call the turn waits on (`pending_call.call_id`): `approve: true` runs it with',
  '`confirm: true` through the same runner; `approve: false` declines it (the model is told it did not run). The turn',
  'goes on in the same workflow; poll it. A turn not waiting, or waiting on another call, is 409.',
].join(' ');
