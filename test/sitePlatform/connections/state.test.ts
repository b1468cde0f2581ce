import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { isExpired, newState, readState, signState, stateKey, STATE_TTL_SECONDS } from '../../../src/sitePlatform/connections/state';

describe('site platform OAuth state', () => {
  const key = stateKey(randomBytes(32).toString('hex'));
  const fields = { accountId: 'acc', intent: 'site_account_connect' as const, client: { kind: 'service' as const } };

  it('a signed state reads back; a tampered payload or signature, or another key, reads as null', () => {
    const state = newState(fields, Date.now());
    const signed = signState(key, state);
    assert.deepEqual(readState(key, signed), state);
    const [payload, sig] = signed.split('.');
    const forged = Buffer.from(JSON.stringify({ ...state, accountId: 'other' })).toString('base64url');
    assert.equal(readState(key, `${forged}.${sig}`), null);
    assert.equal(readState(key, `${payload}.${sig.slice(0, -2)}xx`), null);
    assert.equal(readState(stateKey('another secret'), signed), null);
    assert.equal(readState(key, 'garbage'), null);
  });

  it('the state lives exactly five minutes on an injected clock', () => {
    const t0 = Date.UTC(2026, 10, 22, 12, 0, 0);
    const state = newState(fields, t0);
    assert.equal(STATE_TTL_SECONDS, 300);
    assert.equal(isExpired(state, t0 + 299_999), false);
    assert.equal(isExpired(state, t0 + 300_000), true);
  });
});
