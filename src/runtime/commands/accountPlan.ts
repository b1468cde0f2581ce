import { accountExists } from '../../auth/service';
import { BILLING_STANDINGS, setPlan, type AccountPlan, type BillingStanding } from '../../billing/service';
import { loadConfig } from '../../config';
import { withAdminDb } from '../adminDb';
import { parseFlags, requiredId } from '../args';
import type { CommandIO } from '../command';
import { CliError, UsageError } from '../errors';

const NAME = 'account plan';

export const ACCOUNT_PLAN_USAGE =
  'account plan --account ID [--plan NAME] [--image-allowance N|unlimited] [--standing good|past_due|unpaid|suspended] [--json]';

/** `account plan`: sets the given fields of an account's plan (the rest stay) and prints the plan; no flag only prints it. */
export async function runAccountPlan(args: string[], io: CommandIO): Promise<number> {
  const flags = parseFlags(NAME, args, {
    account: { type: 'string' },
    plan: { type: 'string' },
    'image-allowance': { type: 'string' },
    standing: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const accountId = requiredId(NAME, 'account', flags.account);
  const changes: Partial<AccountPlan> = {};
  if (flags.plan !== undefined) changes.plan = planName(flags.plan);
  if (flags['image-allowance'] !== undefined) changes.image_allowance_monthly = allowance(flags['image-allowance']);
  if (flags.standing !== undefined) changes.billing_standing = standing(flags.standing);

  const config = loadConfig(io.env);
  const plan = await withAdminDb(NAME, config, async (db) => {
    if (!(await accountExists(db, accountId))) throw new CliError(`${NAME}: no account with id ${accountId}`);
    return setPlan(db, accountId, changes);
  });

  if (flags.json) {
    io.out(JSON.stringify({ account_id: accountId, ...plan }));
  } else {
    const images = plan.image_allowance_monthly === null ? 'unlimited images' : `${plan.image_allowance_monthly} images a month (UTC)`;
    io.out(`account ${accountId}: plan "${plan.plan}", ${images}, billing standing ${plan.billing_standing}`);
  }
  return 0;
}

function planName(value: string): string {
  const name = value.trim();
  if (!name || name.length > 100) throw new UsageError(`${NAME}: --plan must be 1 to 100 characters`);
  return name;
}

function allowance(value: string): number | null {
  const text = value.trim().toLowerCase();
  if (text === 'unlimited') return null;
  const n = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(`${NAME}: --image-allowance "${value}" is not a whole number ≥ 0 or "unlimited"`);
  return n;
}

function standing(value: string): BillingStanding {
  const text = value.trim();
  if (!(BILLING_STANDINGS as readonly string[]).includes(text)) {
    throw new UsageError(`${NAME}: --standing "${value}" is not one of ${BILLING_STANDINGS.join(', ')}`);
  }
  return text as BillingStanding;
}
