import type { Knex } from '../../db/knex';

export const COMMERCE_PROVIDER = 'commerce';

export interface AppRegistrationRow {
  id: string;
  account_id: string;
  provider: string;
  client_id: string;
  /** Plaintext on purpose (doc3): the webhook receiver and the OAuth callback verify signatures with it. */
  client_secret: string;
  created_at: Date;
  updated_at: Date;
}

/** The account's commerce app registration, if any. */
export async function findCommerceApp(db: Knex, accountId: string): Promise<AppRegistrationRow | undefined> {
  return db('app_registrations').where({ account_id: accountId, provider: COMMERCE_PROVIDER }).first();
}

/** Creates or replaces the account's commerce app registration (one per account and provider). */
export async function saveCommerceApp(
  db: Knex,
  accountId: string,
  app: { clientId: string; clientSecret: string },
): Promise<AppRegistrationRow> {
  const [row] = await db('app_registrations')
    .insert({ account_id: accountId, provider: COMMERCE_PROVIDER, client_id: app.clientId, client_secret: app.clientSecret })
    .onConflict(['account_id', 'provider'])
    .merge({ client_id: app.clientId, client_secret: app.clientSecret, updated_at: db.fn.now() })
    .returning('*');
  return row;
}
