import { PERMISSIONS, isPermission, type Permission } from '../../auth/permissions';
import { toAgentKey } from '../../auth/schemas';
import { accountExists, createAgentKey, listAgentKeys, revokeAgentKey } from '../../auth/service';
import { loadConfig } from '../../config';
import { withAdminDb } from '../adminDb';
import { parseFlags, required, requiredId } from '../args';
import type { Command, CommandIO } from '../command';
import { CliError, UsageError } from '../errors';
import { withSecretHashKey } from '../secretHashKey';
import { ApiError } from '../../http/errors';

const USAGE = [
  'key create --account ID --name NAME --permissions P1,P2|all [--read-only] [--json]',
  'key list --account ID [--json]',
  'key revoke --account ID --key KEY_ID [--json]',
];

export const keyCommand: Command = {
  // One help line per action (help indents every line of `usage` by two spaces).
  usage: USAGE.join('\n  '),
  summary:
    `create: makes an agent API key for an account and prints it once. Permissions: ${PERMISSIONS.join(', ')} (or "all"). ` +
    '--json prints the key as POST /api/agent-keys answers it, with `account_id` and its `token`. ' +
    "list: the account's keys, revoked ones too, newest first (never a token); --json prints a JSON array of keys as the API answers them. " +
    'revoke: revokes one key of the account; every API process refuses it from its next request (revoking again keeps the first time).',
  async run(args, io) {
    const [action, ...rest] = args;
    if (action === 'create') return createKey(rest, io);
    if (action === 'list') return listKeys(rest, io);
    if (action === 'revoke') return revokeKey(rest, io);
    throw new UsageError(
      action ? `key: unknown action "${action}" (known: create, list, revoke)` : 'key: missing action (known: create, list, revoke)',
    );
  },
};

async function createKey(args: string[], io: CommandIO): Promise<number> {
  const flags = parseFlags('key create', args, {
    account: { type: 'string' },
    name: { type: 'string' },
    permissions: { type: 'string' },
    'read-only': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  const accountId = requiredId('key create', 'account', flags.account);
  const name = required('key create', 'name', flags.name);
  if (name.length > 100) throw new UsageError('key create: --name must be at most 100 characters');
  const permissions = parsePermissions(required('key create', 'permissions', flags.permissions));

  const { config } = await withSecretHashKey(loadConfig(io.env));
  const { key, token } = await withAdminDb('key create', config, async (db) => {
    if (!(await accountExists(db, accountId))) throw new CliError(`key create: no account with id ${accountId}`);
    return createAgentKey(db, config.SECRET_HASH_KEY!, accountId, { name, permissions, readOnly: flags['read-only'] });
  });

  if (flags.json) {
    io.out(JSON.stringify({ account_id: accountId, ...toAgentKey(key), token }));
  } else {
    io.out(
      [
        `created agent key "${key.name}" (id ${key.id}) for account ${accountId}${key.read_only ? ', read-only' : ''}`,
        `  permissions: ${key.permissions.join(', ')}`,
        `  key:         ${token}`,
        'shown this once: only its hash is stored. Send it as "Authorization: Bearer <key>".',
      ].join('\n'),
    );
  }
  return 0;
}

async function listKeys(args: string[], io: CommandIO): Promise<number> {
  const flags = parseFlags('key list', args, { account: { type: 'string' }, json: { type: 'boolean', default: false } });
  const accountId = requiredId('key list', 'account', flags.account);
  const config = loadConfig(io.env);
  const keys = await withAdminDb('key list', config, async (db) => {
    if (!(await accountExists(db, accountId))) throw new CliError(`key list: no account with id ${accountId}`);
    return (await listAgentKeys(db, accountId)).map(toAgentKey);
  });
  if (flags.json) {
    io.out(JSON.stringify(keys));
    return 0;
  }
  if (keys.length === 0) io.out(`account ${accountId} has no agent keys`);
  for (const key of keys) {
    const state = key.revoked_at ? `revoked ${key.revoked_at}` : key.last_used_at ? `last used ${key.last_used_at}` : 'never used';
    io.out(`${key.id}  …${key.token_hint}  ${key.name}  ${key.read_only ? 'read-only ' : ''}[${key.permissions.join(', ')}]  ${state}`);
  }
  return 0;
}

async function revokeKey(args: string[], io: CommandIO): Promise<number> {
  const flags = parseFlags('key revoke', args, {
    account: { type: 'string' },
    key: { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const accountId = requiredId('key revoke', 'account', flags.account);
  const keyId = requiredId('key revoke', 'key', flags.key);
  const config = loadConfig(io.env);
  const revoked = await withAdminDb('key revoke', config, async (db) => {
    try {
      return toAgentKey(await revokeAgentKey(db, accountId, keyId));
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) throw new CliError(`key revoke: account ${accountId} has no key with id ${keyId}`);
      throw err;
    }
  });
  io.out(flags.json ? JSON.stringify(revoked) : `revoked agent key "${revoked.name}" (id ${revoked.id}) at ${revoked.revoked_at}`);
  return 0;
}

/** A comma-separated list of known permissions, or "all"; anything unknown is a usage error that lists the known ones. */
export function parsePermissions(value: string): Permission[] {
  const items = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (items.length === 1 && items[0] === 'all') return [...PERMISSIONS];
  const unknown = items.filter((p) => !isPermission(p));
  if (unknown.length) {
    throw new UsageError(
      `key create: unknown permission${unknown.length > 1 ? 's' : ''} ${unknown.map((p) => `"${p}"`).join(', ')}; known: ${PERMISSIONS.join(', ')}, or "all"`,
    );
  }
  if (!items.length) throw new UsageError('key create: --permissions needs at least one permission');
  return [...new Set(items as Permission[])];
}
