import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { findCommerceApp, type AppRegistrationRow } from './store';

// The routes read and save the registration as stored; no rule sits between.
export { findCommerceApp, saveCommerceApp, type AppRegistrationRow } from './store';

export const appNotRegistered = () =>
  new ApiError(
    409,
    'commerce_app_not_registered',
    "register the account's commerce app first: PUT /api/commerce/app with its client_id and client_secret",
  );

/** The account's app registration, or 409 `commerce_app_not_registered`. */
export async function requireCommerceApp(db: Knex, accountId: string): Promise<AppRegistrationRow> {
  const app = await findCommerceApp(db, accountId);
  if (!app) throw appNotRegistered();
  return app;
}

/** The last 4 characters of the secret, the only part ever shown again. */
export const secretHint = (secret: string) => secret.slice(-4);
