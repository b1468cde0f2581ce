import type { Knex } from 'knex';

/**
 * Agent-key changes are announced on the `agent_keys` channel: API replicas keep the keys they
 * authenticate in memory and drop an entry when its key is revoked, re-permissioned or deleted — by any code path
 * or replica, since the database says so at commit. `last_used_at` stamps announce nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function notify_agent_key_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('agent_keys', old.id::text);
      return null;
    end $$;

    create trigger agent_keys_announce_update after update on agent_keys for each row
      when (old.revoked_at is distinct from new.revoked_at
        or old.permissions is distinct from new.permissions
        or old.read_only is distinct from new.read_only
        or old.secret_hash is distinct from new.secret_hash
        or old.account_id is distinct from new.account_id
        or old.id is distinct from new.id)
      execute function notify_agent_key_change();

    create trigger agent_keys_announce_delete after delete on agent_keys for each row
      execute function notify_agent_key_change();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    drop trigger if exists agent_keys_announce_delete on agent_keys;
    drop trigger if exists agent_keys_announce_update on agent_keys;
    drop function if exists notify_agent_key_change();
  `);
}
