import assert from 'node:assert/strict';
import { callbackHmac, callbackMessage, verifyCallbackHmac } from '../../../src/commerce/oauth/callbackHmac';
import { signQuery } from '../../../src/sandbox/commerce';

describe('commerce OAuth callback HMAC (unit)', () => {
  const secret = 'csec_0123456789abcdef';
  const query = { shop: 'acme.commerce.test', code: 'abc123', timestamp: '1767225600', state: 'p.s', host: 'YWNtZQ' };

  it('the message is every parameter but hmac and signature, sorted, as key=value joined by &', () => {
    assert.equal(
      callbackMessage({ ...query, hmac: 'ff', signature: 'legacy' }),
      'code=abc123&host=YWNtZQ&shop=acme.commerce.test&state=p.s&timestamp=1767225600',
    );
  });

  it('the signature is the hex HMAC-SHA256 the platform computes', () => {
    assert.equal(callbackHmac(secret, query), signQuery(Object.entries(query), secret));
    assert.match(callbackHmac(secret, query), /^[0-9a-f]{64}$/);
  });

  it('a matching hmac verifies, in either hex case', () => {
    const hmac = callbackHmac(secret, query);
    assert.equal(verifyCallbackHmac(secret, { ...query, hmac }), true);
    assert.equal(verifyCallbackHmac(secret, { ...query, hmac: hmac.toUpperCase() }), true);
  });

  it('a changed parameter, another secret or a malformed hmac fails', () => {
    const hmac = callbackHmac(secret, query);
    assert.equal(verifyCallbackHmac(secret, { ...query, shop: 'evil.commerce.test', hmac }), false);
    assert.equal(verifyCallbackHmac(secret, { ...query, extra: '1', hmac }), false);
    assert.equal(verifyCallbackHmac('another-secret', { ...query, hmac }), false);
    assert.equal(verifyCallbackHmac(secret, { ...query, hmac: hmac.slice(0, 63) }), false);
    assert.equal(verifyCallbackHmac(secret, { ...query, hmac: Buffer.from(hmac, 'hex').toString('base64') }), false);
    assert.equal(verifyCallbackHmac(secret, { ...query }), false);
  });
});
