import assert from 'node:assert/strict';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { resolveCredentials } from '../../../src/sitePlatform/connections';
import { bustCredentials } from '../../../src/sitePlatform/connections/resolve';
import { harness } from '../../helpers/harness';
import { newAccount } from '../../helpers/accounts';
import { addSite, connectWithSiteToken, depsOf, newKey, startSiteWorld, type SiteWorld } from './fixtures';

describe('site platform token key rotation', () => {
  const keyA = newKey();
  const keyB = newKey();
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld({ SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: keyA });
  });
  after(async () => {
    await world.close();
  });

  const rowOf = (accountId: string) => harness().db('site_platform_connections').where({ account_id: accountId }).first();

  it('a token sealed under _PREVIOUS still decrypts and is re-wrapped under the current key on its next use', async () => {
    const account = await newAccount();
    const site = addSite(world).id;
    const { token } = await connectWithSiteToken(world, account, [site]);
    const sealedA = (await rowOf(account.accountId)).access_token_enc;

    const rotated = await startSiteWorld(
      { SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: keyB, SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS: keyA },
      { sim: world.sim },
    );
    try {
      bustCredentials(account.accountId);
      const resolved = await resolveCredentials(depsOf(rotated), account.accountId, { siteId: site });
      assert.equal(resolved?.token, token);
      const sealedB = (await rowOf(account.accountId)).access_token_enc;
      assert.notEqual(sealedB, sealedA);
      assert.deepEqual(createTokenCipher(keyB).decrypt(sealedB), { plaintext: token, rewrap: false });
      assert.throws(() => createTokenCipher(keyA).decrypt(sealedB));
    } finally {
      await rotated.close();
    }
  });

  it('a token under a key the service no longer has is 503 site_platform_token_unreadable, never a 500', async () => {
    const account = await newAccount();
    const site = addSite(world).id;
    await connectWithSiteToken(world, account, [site]);
    const lost = await startSiteWorld({ SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: keyB }, { sim: world.sim });
    try {
      bustCredentials(account.accountId);
      await assert.rejects(resolveCredentials(depsOf(lost), account.accountId, { siteId: site }), {
        status: 503,
        code: 'site_platform_token_unreadable',
      });
    } finally {
      await lost.close();
    }
  });
});
