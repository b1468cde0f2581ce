import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { isExpired, newState, readState, signState, stateKey, STATE_TTL_SECONDS } from '../../../src/commerce/oauth/state';

describe('commerce OAuth state (unit)', () => {
  const key = stateKey(randomBytes(32).toString('hex'));
  const accountId = '6f1c2b1e-8c35-4a51-9a57-2f7d7f0c0a11';

  it('a signed state reads back with its account, shop, nonce and a 10-minute expiry', () => {
    const now = Date.UTC(2026, 0, 1);
    const state = newState(accountId, 'acme.commerce.test', now);
    const read = readState(key, signState(key, state));
    assert.deepEqual(read, state);
    assert.equal(state.expiresAt, now / 1000 + STATE_TTL_SECONDS);
    assert.equal(STATE_TTL_SECONDS, 600);
    assert.match(state.nonce, /^[0-9a-f]{32}$/);
  });

  it('two states for the same shop differ (fresh nonce)', () => {
    assert.notEqual(signState(key, newState(accountId, 'a.commerce.test')), signState(key, newState(accountId, 'a.commerce.test')));
  });

  it('a state with an altered payload or signature is refused', () => {
    const token = signState(key, newState(accountId, 'acme.commerce.test'));
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), a: '00000000-0000-0000-0000-000000000000' }),
    ).toString('base64url');
    assert.equal(readState(key, `${forged}.${signature}`), null);
    assert.equal(readState(key, `${payload}.${signature.slice(0, -2)}AA`), null);
    assert.equal(readState(key, `${payload}.`), null);
    assert.equal(readState(key, `${token}.extra`), null);
    assert.equal(readState(key, 'garbage'), null);
  });

  it('a state signed with another key is refused', () => {
    const other = stateKey(randomBytes(32).toString('hex'));
    assert.equal(readState(key, signState(other, newState(accountId, 'acme.commerce.test'))), null);
  });

  it('a state is expired from its expiry on', () => {
    const state = newState(accountId, 'acme.commerce.test', 0);
    assert.equal(isExpired(state, STATE_TTL_SECONDS * 1000 - 1), false);
    assert.equal(isExpired(state, STATE_TTL_SECONDS * 1000), true);
  });
});
