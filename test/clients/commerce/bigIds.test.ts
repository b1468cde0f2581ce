import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCommerceClient } from '../../../src/clients/commerce';
import { parsePlatformJson } from '../../../src/clients/commerce/json';

const BEYOND = '9007199254740993'; // 2^53 + 1: JSON.parse reads it as 9007199254740992

/** Rule: the platform's ids are 64-bit integers; reading them must never change one (an id that silently changes names another record). */
describe('commerce platform JSON: 64-bit integer ids keep every digit', () => {
  it('an integer beyond 2^53 is read as its exact digits; safe integers, decimals and strings are read as JSON.parse reads them', () => {
    const text =
      `{"id":${BEYOND},"n":-12345678901234567890,"safe":9007199254740991,"price":12.5,"big_float":1.0e25,` +
      `"s":"${BEYOND} stays text","nested":[{"line_id":18446744073709551615}],"esc":"a\\"${BEYOND}"}`;
    assert.deepEqual(parsePlatformJson(text), {
      id: BEYOND,
      n: '-12345678901234567890',
      safe: 9007199254740991,
      price: 12.5,
      big_float: 1e25,
      s: `${BEYOND} stays text`,
      nested: [{ line_id: '18446744073709551615' }],
      esc: `a"${BEYOND}`,
    });
    assert.throws(() => parsePlatformJson('{"id": 1,'), SyntaxError);
  });

  it('the client reads an orders page whose ids pass 2^53 without changing them', async () => {
    const body = `{"orders":[{"id":${BEYOND},"customer":{"id":12345678901234567891},"line_items":[{"id":${BEYOND}}]}]}`;
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = createCommerceClient({
        COMMERCE_SHOP_URL_TEMPLATE: `http://127.0.0.1:${(server.address() as AddressInfo).port}/{shop}`,
      });
      const page = await client.listOrders({ shopDomain: 'big.commerce.test', accessToken: 't' });
      assert.deepEqual(page.orders[0], { id: BEYOND, customer: { id: '12345678901234567891' }, line_items: [{ id: BEYOND }] });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
