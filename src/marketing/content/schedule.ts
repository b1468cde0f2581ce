import { ApiError } from '../../http/errors';
import { invalidField } from '../../http/fieldErrors';

export const LINK_STEP = 'link the item to a site collection first: set cms_link { project_id, collection_id } on the item';

interface ScheduleState {
  scheduled_publish_at: Date | null;
  cms_link: unknown;
}

interface ScheduleInput {
  scheduled_publish_at?: string | null;
  cancel_scheduled_publish?: boolean;
  cms_link?: unknown;
}

/**
 * The schedule after a write ("States and transitions"), or undefined when it stays as it is.
 * - null or absent: unchanged (null never cancels); equal to the stored instant: ignored (autosave echo);
 * - a different instant: the item must be linked (this write's cms_link counts) or 409 `not_linked`, and it must
 *   be in the future (400);
 * - cancel_scheduled_publish true: cleared (sending it with a different instant is contradictory: 400).
 */
export function resolveSchedule(stored: ScheduleState, input: ScheduleInput, now: Date): Date | null | undefined {
  const sent = input.scheduled_publish_at;
  const at = sent === null || sent === undefined ? null : new Date(sent);
  const isRequest = at !== null && at.getTime() !== stored.scheduled_publish_at?.getTime();

  if (input.cancel_scheduled_publish === true) {
    if (isRequest) throw invalidField('body.cancel_scheduled_publish', 'cannot cancel and set a new scheduled_publish_at in one request');
    return null;
  }
  if (!isRequest) return undefined;

  const link = input.cms_link !== undefined ? input.cms_link : stored.cms_link;
  if (!link) {
    throw new ApiError(409, 'not_linked', 'the item is not linked to a site collection, so it cannot be scheduled', {
      details: { link_step: LINK_STEP },
    });
  }
  if (at.getTime() <= now.getTime()) throw invalidField('body.scheduled_publish_at', 'must be in the future');
  return at;
}
