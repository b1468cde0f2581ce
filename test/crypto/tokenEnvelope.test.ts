import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createTokenCipher, TokenKeyError } from '../../src/crypto/tokenEnvelope';

const key = () => randomBytes(32).toString('base64');

describe('token envelopes (AES-256-GCM v1:iv:ct:tag)', () => {
  it('a token round-trips and is stored as v1:iv:ct:tag, never in the clear', () => {
    const cipher = createTokenCipher(key());
    const envelope = cipher.encrypt('shpat_secret_token');
    assert.match(envelope, /^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    assert.ok(!envelope.includes('shpat_secret_token'));
    assert.deepEqual(cipher.decrypt(envelope), { plaintext: 'shpat_secret_token', rewrap: false });
  });

  it('two encryptions of one token differ (a fresh IV each time)', () => {
    const cipher = createTokenCipher(key());
    assert.notEqual(cipher.encrypt('t'), cipher.encrypt('t'));
  });

  it('after rotation, a token sealed with the previous key still opens and asks to be re-wrapped', () => {
    const oldKey = key();
    const sealedBefore = createTokenCipher(oldKey).encrypt('token-before-rotation');
    const rotated = createTokenCipher(key(), oldKey);
    assert.deepEqual(rotated.decrypt(sealedBefore), { plaintext: 'token-before-rotation', rewrap: true });
    const rewrapped = rotated.encrypt('token-before-rotation');
    assert.equal(rotated.decrypt(rewrapped).rewrap, false);
  });

  it('without the previous key, a token sealed with it cannot be read (losing the key loses the tokens)', () => {
    const sealed = createTokenCipher(key()).encrypt('t');
    assert.throws(() => createTokenCipher(key()).decrypt(sealed), TokenKeyError);
  });

  it('an altered envelope is refused (GCM authentication)', () => {
    const cipher = createTokenCipher(key());
    const [v, iv, ct, tag] = cipher.encrypt('token').split(':');
    const flipped = Buffer.from(ct, 'base64');
    flipped[0] ^= 1;
    assert.throws(() => cipher.decrypt([v, iv, flipped.toString('base64'), tag].join(':')), TokenKeyError);
  });

  it('no key configured is a clear error, not a crash deep in a request', () => {
    assert.throws(() => createTokenCipher(undefined, undefined, 'SOME_TOKEN_KEY'), /SOME_TOKEN_KEY is not set/);
  });
});
