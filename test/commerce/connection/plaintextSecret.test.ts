import assert from 'node:assert/strict';
import { createTokenCipher } from '../../../src/crypto/tokenEnvelope';
import { verifyWebhookSignature } from '../../../src/commerce/webhooks/signature';
import { TARGET_CACHE_TTL_MS } from '../../../src/commerce/webhooks/targets';
import { signBody } from '../../../src/sandbox/commerce';
import { harness } from '../../helpers/harness';
import { newAccount } from '../../helpers/accounts';
import { connectShop, registerApp, startCommerceWorld, type CommerceWorld } from './fixtures';

/**
 * doc3: the app client_secret is stored in plaintext on purpose — the receiver verifies every delivery with it, and
 * an encrypted secret would make every delivery fail with 401. Proven end to end: the simulator delivers to the
 * webhook URL registered at connect (the harness app's receiver), first with the stored plaintext secret, then with
 * the same secret stored encrypted.
 */
describe('commerce app client_secret is stored in plaintext on purpose', () => {
  let world: CommerceWorld;
  before(async () => {
    world = await startCommerceWorld();
  });
  after(async () => {
    await world.close();
  });

  it('deliveries verify against the stored secret; the same secret stored encrypted makes them fail with 401', async () => {
    const account = await newAccount();
    const app = await registerApp(world, account);
    const { shopDomain } = await connectShop(world, account);
    const payload = { id: 9001, title: 'Plain secret proof' };

    const stored = await harness().db('app_registrations').where({ account_id: account.accountId, provider: 'commerce' }).first();
    assert.equal(stored.client_secret, app.clientSecret);
    const ok = await world.sim.deliver(shopDomain, 'products/update', payload, { retrySchedule: [] });
    assert.deepEqual(
      ok.attempts.map((a) => a.status),
      [200],
    );

    const encrypted = createTokenCipher(harness().deps.config.COMMERCE_TOKEN_ENCRYPTION_KEY).encrypt(app.clientSecret);
    await harness().db('app_registrations').where({ id: stored.id }).update({ client_secret: encrypted });
    // A receiver reuses a shop's lookup (with its secret) for TARGET_CACHE_TTL_MS: a changed secret is seen that late.
    await new Promise((resolve) => setTimeout(resolve, TARGET_CACHE_TTL_MS + 50));
    try {
      const refused = await world.sim.deliver(shopDomain, 'products/update', payload, { retrySchedule: [] });
      assert.deepEqual(
        refused.attempts.map((a) => a.status),
        [401],
      );

      // The same at the verification function: the platform signs with the plaintext secret.
      const body = Buffer.from(JSON.stringify(payload));
      const signature = signBody(body, app.clientSecret);
      assert.equal(verifyWebhookSignature([app.clientSecret], body, signature), true);
      assert.equal(verifyWebhookSignature([encrypted], body, signature), false);
    } finally {
      await harness().db('app_registrations').where({ id: stored.id }).update({ client_secret: app.clientSecret });
    }
  });
});
