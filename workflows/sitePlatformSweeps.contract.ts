/** Types the site platform connection sweeps (token health, webhook health) share. No I/O. */

/** A live connection, as a sweep's page activity names it and its per-connection activity takes it. */
export interface ConnectionRef {
  accountId: string;
  connectionId: string;
  authKind: 'oauth' | 'site_token';
}
