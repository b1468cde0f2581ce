import { z } from 'zod';
import { PERMISSIONS, isPermission, type Permission } from '../../auth/permissions';
import { toAgentKey } from '../../auth/schemas';
import { accountExists, createAgentKey } from '../../auth/service';
import { loadConfig } from '../../config';
import { withAdminDb } from '../adminDb';
import { parseFlags, required } from '../args';
import type { Command } from '../command';
import { CliError, UsageError } from '../errors';
import { withSecretHashKey } from '../secretHashKey';

export const keyCommand: Command = {
  usage: 'key create --account ID --name NAME --permissions P1,P2|all [--read-only] [--json]',
  summary:
    `Creates an agent API key for an account and prints it once. Permissions: ${PERMISSIONS.join(', ')} (or "all"). ` +
    '--json prints the key as POST /api/agent-keys answers it, with `account_id` and its `token`.',
  async run(args, io) {
    const [action, ...rest] = args;
    if (action !== 'create')
      throw new UsageError(action ? `key: unknown action "${action}" (known: create)` : 'key: missing action (known: create)');
    const flags = parseFlags('key create', rest, {
      account: { type: 'string' },
      name: { type: 'string' },
      permissions: { type: 'string' },
      'read-only': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    });
    const accountId = uuid(required('key create', 'account', flags.account));
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
  },
};

function uuid(value: string): string {
  if (!z.uuid().safeParse(value).success) throw new UsageError(`key create: --account "${value}" is not an account id (a UUID)`);
  return value.toLowerCase();
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
