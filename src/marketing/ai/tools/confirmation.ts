import { ApiError } from '../../../http/errors';
import type { OperationDef } from '../../../sitePlatform/registry';
import type { ToolOutcome } from '../types';
import { MAX_CONTENT_CHARS } from './outcome';

/** Arguments longer than this are named by size only, so the pending call's text stays whole (an asset upload is MBs). */
const MAX_SHOWN_ARGUMENTS = MAX_CONTENT_CHARS - 2_000;
const BOUND_SITE = 'site-of-the-binding';

/**
 * The parameter checks the runner would make, before the user is asked: a call that cannot run is a 400 now, not
 * after a confirmation. An omitted site_id is the binding's (the runner fills it), so it is not a fault here.
 */
export function preflight(op: OperationDef, params: Record<string, unknown>, projectId: string | undefined): void {
  const candidate = op.platform ? { site_id: BOUND_SITE, ...params } : { ...params, project_id: projectId ?? params.project_id };
  const parsed = op.params.safeParse(candidate);
  if (parsed.success) return;
  throw new ApiError(400, 'validation_failed', `the parameters of ${op.name} are invalid`, {
    errors: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}

/** Nothing ran: the pending call as the user will confirm it (the pinned project already in place). */
export function confirmationNeeded(op: OperationDef, tool: string, input: Record<string, unknown>): ToolOutcome {
  const { action: _action, ...args } = input;
  const shown = JSON.stringify(args);
  const content = JSON.stringify({
    code: 'confirmation_required',
    tool,
    arguments: shown.length <= MAX_SHOWN_ARGUMENTS ? args : null,
    ...(shown.length > MAX_SHOWN_ARGUMENTS ? { arguments_omitted: `${shown.length} characters` } : {}),
    reason: `${op.name} is confirm-gated (${op.kind} of family ${op.family}): it runs only after the user confirms this call; nothing ran.`,
  });
  return { status: 'needs_confirmation', http_status: 412, content, truncated: false, data_updates: [] };
}
