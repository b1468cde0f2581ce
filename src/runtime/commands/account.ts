import { z } from 'zod';
import { toAccount } from '../../auth/schemas';
import { createAccount, listAllAccounts } from '../../auth/service';
import { loadConfig } from '../../config';
import { withAdminDb } from '../adminDb';
import { parseFlags, required } from '../args';
import type { Command, CommandIO } from '../command';
import { UsageError } from '../errors';
import { withSecretHashKey } from '../secretHashKey';
import { ACCOUNT_PLAN_USAGE, runAccountPlan } from './accountPlan';

const DEFAULT_OWNER_EMAIL = 'owner@localhost';

export const accountCommand: Command = {
  // Two actions, one help line each (help indents every line of `usage` by two spaces).
  usage: `account create --name NAME [--owner-email EMAIL] [--owner-name NAME] [--json]\n  ${ACCOUNT_PLAN_USAGE}\n  account list [--json]`,
  summary:
    `create: makes an account with its owner (default ${DEFAULT_OWNER_EMAIL}) and prints an owner session token and an agent key ` +
    'with every permission, shown once. --json prints only {"account":{"id","name"},"owner_token","agent_key"}. ' +
    "plan: sets the given fields of the account's plan (the others stay; no flag prints it): plan name, monthly image " +
    'allowance (a number or "unlimited") and billing standing; --json prints {"account_id","plan","image_allowance_monthly","billing_standing"}. ' +
    'list: every account of the installation, oldest first; --json prints a JSON array of {"id","name","created_at"}.',
  async run(args, io) {
    const [action, ...rest] = args;
    if (action === 'plan') return runAccountPlan(rest, io);
    if (action === 'list') return listAccounts(rest, io);
    if (action !== 'create')
      throw new UsageError(
        action ? `account: unknown action "${action}" (known: create, plan, list)` : 'account: missing action (known: create, plan, list)',
      );
    const flags = parseFlags('account create', rest, {
      name: { type: 'string' },
      'owner-email': { type: 'string', default: DEFAULT_OWNER_EMAIL },
      'owner-name': { type: 'string', default: 'Owner' },
      json: { type: 'boolean', default: false },
    });
    const name = accountName(required('account create', 'name', flags.name));
    const ownerEmail = email(flags['owner-email']);
    const ownerName = required('account create', 'owner-name', flags['owner-name']);

    const { config } = await withSecretHashKey(loadConfig(io.env));
    const created = await withAdminDb('account create', config, (db) =>
      createAccount(db, config.SECRET_HASH_KEY!, { name, ownerEmail, ownerName }),
    );

    if (flags.json) {
      io.out(
        JSON.stringify({
          account: { id: created.account.id, name: created.account.name },
          owner_token: created.ownerToken,
          agent_key: created.agentKey,
        }),
      );
    } else {
      io.out(
        [
          `created account "${created.account.name}" (id ${created.account.id}) with the owner ${created.owner.email}`,
          `  owner session token (dashboard routes): ${created.ownerToken}`,
          `  agent key (every permission):          ${created.agentKey}`,
          'shown this once: only their hashes are stored. Send them as "Authorization: Bearer <token>".',
        ].join('\n'),
      );
    }
    return 0;
  },
};

async function listAccounts(args: string[], io: CommandIO): Promise<number> {
  const flags = parseFlags('account list', args, { json: { type: 'boolean', default: false } });
  const accounts = (await withAdminDb('account list', loadConfig(io.env), listAllAccounts)).map(toAccount);
  if (flags.json) io.out(JSON.stringify(accounts));
  else if (accounts.length === 0) io.out('no accounts yet: `npm run cli -- account create --name NAME` makes one');
  else for (const a of accounts) io.out(`${a.id}  ${a.created_at}  ${a.name}`);
  return 0;
}

function accountName(value: string): string {
  if (value.length > 100) throw new UsageError('account create: --name must be at most 100 characters');
  return value;
}

function email(value: string): string {
  // `owner@localhost` is fine for a local install, so the check is "something@something", not a public domain.
  if (
    !z
      .string()
      .regex(/^[^\s@]+@[^\s@]+$/)
      .safeParse(value).success
  ) {
    throw new UsageError(`account create: --owner-email "${value}" is not an email address`);
  }
  return value;
}
