import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { harness } from '../../helpers/harness';
import { newAccount } from '../../helpers/accounts';
import { connectShop, registerApp, startCommerceWorld, type CommerceWorld } from './fixtures';

describe('commerce token key rotation', () => {
  const keyA = randomBytes(32).toString('base64');
  const keyB = randomBytes(32).toString('base64');
  let beforeRotation: CommerceWorld;
  before(async () => {
    beforeRotation = await startCommerceWorld({ COMMERCE_TOKEN_ENCRYPTION_KEY: keyA });
  });
  after(async () => {
    await beforeRotation.close();
  });

  const rowOf = (id: string) => harness().db('commerce_connections').where({ id }).first();

  it('a token stored under key A still works after a restart with key B and _PREVIOUS=A, and is re-wrapped under B', async () => {
    const account = await newAccount();
    await registerApp(beforeRotation, account);
    const { connection } = await connectShop(beforeRotation, account);
    const sealedA = (await rowOf(connection.id)).admin_token_enc;
    const token = createTokenCipher(keyA).decrypt(sealedA).plaintext;

    const rotated = await startCommerceWorld(
      { COMMERCE_TOKEN_ENCRYPTION_KEY: keyB, COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS: keyA },
      beforeRotation.sim,
    );
    try {
      const res = await rotated.app.call('POST', `/api/commerce/connections/${connection.id}/verify`, { token: account.ownerToken });
      assert.equal(res.status, 200, res.text);

      const sealedB = (await rowOf(connection.id)).admin_token_enc;
      assert.notEqual(sealedB, sealedA);
      assert.deepEqual(createTokenCipher(keyB).decrypt(sealedB), { plaintext: token, rewrap: false });
      assert.throws(() => createTokenCipher(keyA).decrypt(sealedB), 'no longer readable with the old key alone');
    } finally {
      await rotated.close();
    }

    // With the old key removed, the re-wrapped row keeps working.
    const afterRemoval = await startCommerceWorld({ COMMERCE_TOKEN_ENCRYPTION_KEY: keyB }, beforeRotation.sim);
    try {
      assert.equal(
        (await afterRemoval.app.call('POST', `/api/commerce/connections/${connection.id}/verify`, { token: account.ownerToken })).status,
        200,
      );
    } finally {
      await afterRemoval.close();
    }
  });

  it('a token under a key the service no longer has answers 503 commerce_token_unreadable, never a 500', async () => {
    const account = await newAccount();
    await registerApp(beforeRotation, account);
    const { connection } = await connectShop(beforeRotation, account);
    const lost = await startCommerceWorld(
      { COMMERCE_TOKEN_ENCRYPTION_KEY: keyB, COMMERCE_TOKEN_ENCRYPTION_KEY_PREVIOUS: undefined },
      beforeRotation.sim,
    );
    try {
      const res = await lost.app.call('POST', `/api/commerce/connections/${connection.id}/verify`, { token: account.ownerToken });
      assert.equal(res.status, 503);
      assert.equal(res.body.code, 'commerce_token_unreadable');
    } finally {
      await lost.close();
    }
  });
});
