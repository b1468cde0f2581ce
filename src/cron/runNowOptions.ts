import { z } from 'zod';
import { accountExists } from '../auth/service';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { invalidField } from '../http/fieldErrors';
import { RUN_NOW_INPUT_MEMBERS, type RunNowOption, type ScheduleEntry } from '../temporal/schedules';
import { DEFAULT_DISCONNECT_CAP, MAX_DISCONNECT_CAP } from '../../workflows/sitePlatformTokenHealth.contract';

/** Every option a hand-started run can take; which sweep takes which is its table entry's `runNowOptions`. */
export const RunNowBody = z
  .strictObject({
    account_id: z
      .uuid()
      .optional()
      .describe(
        "Only this account's rows: the site platform connection sweeps (token health, webhook health, webhook URL reconcile). An id of no account is 400 `invalid_reference`.",
      ),
    disconnect_cap: z
      .number()
      .int()
      .min(0)
      .max(MAX_DISCONNECT_CAP)
      .optional()
      .describe(
        `Token health only: most connections this run disconnects, 0–${MAX_DISCONNECT_CAP} (default ${DEFAULT_DISCONNECT_CAP}; 0 checks and disconnects none). The others at the threshold are reported \`disconnect_cap\`.`,
      ),
  })
  .describe('Options of a hand-started run; an empty body (or none) runs the sweep as its schedule does.');
export type RunNowRequest = z.infer<typeof RunNowBody>;

const invalidAccount = () => {
  const message = '`account_id` names no account';
  return new ApiError(400, 'invalid_reference', message, {
    details: { field: 'account_id' },
    errors: [{ path: 'body.account_id', message }],
  });
};

/**
 * The workflow arguments of a hand-started run: the entry's own, with the options it takes set on its input. An option
 * the sweep does not take is 400 `validation_failed` naming it; an `account_id` of no account 400 `invalid_reference`.
 */
export async function runNowArgs(deps: Pick<AppDeps, 'db'>, entry: ScheduleEntry, body: RunNowRequest): Promise<unknown[]> {
  const given = Object.entries(body).filter(([, value]) => value !== undefined) as Array<[RunNowOption, string | number]>;
  const taken = entry.runNowOptions ?? [];
  for (const [option] of given) {
    if (!taken.includes(option)) {
      const takes = taken.length ? `it takes ${taken.join(', ')}` : 'it takes no options';
      throw invalidField(`body.${option}`, `${entry.name} takes no ${option} (${takes})`);
    }
  }
  if (body.account_id && !(await accountExists(deps.db, body.account_id))) throw invalidAccount();
  if (given.length === 0) return entry.args;
  const [input, ...rest] = entry.args;
  const members = Object.fromEntries(given.map(([option, value]) => [RUN_NOW_INPUT_MEMBERS[option], value]));
  return [{ ...(input as object | undefined), ...members }, ...rest];
}
