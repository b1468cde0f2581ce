import type { ErrorSpec } from '../../http/route';

/** OpenAPI entries of what a write that arms or releases a schedule can answer besides the content rules. */
export const scheduleWriteErrorSpecs: ErrorSpec[] = [
  {
    status: 409,
    code: 'schedule_publishing',
    description:
      "The item's scheduled publish is running right now, so its date can be neither moved nor cancelled; nothing is written. Retry once it finished.",
  },
  {
    status: 409,
    code: 'write_locked',
    description: "Staging the item's draft site entry: another publish of the item holds it; nothing is written, safe to retry.",
  },
  {
    status: 409,
    code: 'write_unconfirmed',
    description: 'Staging the draft site entry: the write lock expired while the platform answered; re-read the item before retrying.',
  },
  {
    status: 422,
    code: 'required_fields_unmapped',
    description:
      'Staging the draft site entry: the collection requires fields the item has nothing for (`fields` names them); nothing is scheduled.',
  },
  {
    status: 503,
    code: 'temporal_unavailable',
    description:
      'The job engine did not accept the schedule change in time (unreachable, or no worker took it); nothing is written, the transaction rolled back. Retry shortly (Retry-After).',
  },
];

/** Platform failures while staging the draft entry keep the site platform's codes; nothing is scheduled. */
export const stageErrorSpecs: ErrorSpec[] = [
  {
    status: 412,
    code: 'site_platform_not_connected | missing_scopes',
    description: "Staging the draft site entry: no connection resolves for the project's site, or the grant lacks cms:write.",
  },
  {
    status: 429,
    code: 'rate_limited',
    description: "Staging the draft site entry: the connection's request budget is spent; carries retry_after_seconds.",
  },
  { status: 502, code: 'platform_upstream', description: 'Staging the draft site entry: platform 5xx or network failure.' },
  { status: 504, code: 'platform_timeout', description: 'Staging the draft site entry: no platform answer inside the timeout.' },
];
