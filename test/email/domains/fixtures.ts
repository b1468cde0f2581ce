import type { EmailScope } from '../../../src/auth/types';
import { createEmailKey } from '../../../src/email/keys/service';
import { harness } from '../../helpers/harness';

/** A test-environment email key of the account holding exactly `scopes`, as its bearer token. */
export async function newEmailKey(accountId: string, scopes: EmailScope[]): Promise<string> {
  const { token } = await createEmailKey(harness().deps, accountId, { name: `key ${scopes.join(' ')}`, environment: 'test', scopes });
  return token;
}
