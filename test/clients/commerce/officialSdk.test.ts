import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import '@shopify/shopify-api/adapters/node';
import { ApiVersion, HttpResponseError, LogSeverity, Session, shopifyApi, type Shopify } from '@shopify/shopify-api';
import { abstractFetch, setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { API_VERSION } from '../../../src/sandbox/commerce';
import { APP, SHOP, authorizeUrl, installedSimulator, SCOPES, type Installed } from '../../sandbox/commerce/fixtures';

/**
 * The official SDK of the platform (`@shopify/shopify-api`) against our simulator: its REST admin client (doc3's
 * platform serves the REST Admin API; the simulator serves no GraphQL) and its webhook and OAuth HMAC validators.
 * A shape the SDK cannot read fails here before it fails a customer.
 *
 * Two translations, both of naming only, stand between them (doc3 writes the platform's name as `commerce`):
 * - headers: the SDK speaks `X-Shopify-*`, the simulator `X-Commerce-*` — renamed one to one, values untouched;
 * - hosts: the SDK calls `https://{shop}/admin/...`, the simulator serves shops under `{baseUrl}/{shop}/admin/...`
 *   on loopback — the SDK's fetch hook (`setAbstractFetchFunc`, how its runtime adapters plug in) rewrites the
 *   origin both ways, including the `Link` header of cursor pages. `hostName`/`hostScheme` alone cannot do it: the
 *   SDK builds the store URL from the shop domain (`https://{shop}`), never from a configurable base.
 */
const PLATFORM_HEADER = /^x-commerce-/i;
const SDK_HEADER = /^x-shopify-/i;

function loopbackFetch(sim: Installed['sim'], seen: Array<{ url: string; raw: string }>): typeof fetch {
  const simShopBase = (shop: string) => `${sim.baseUrl}/${shop}`;
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers = new Headers();
    for (const [name, value] of new Headers(init.headers)) headers.set(name.replace(SDK_HEADER, 'x-commerce-'), value);
    const res = await fetch(`${simShopBase(url.host)}${url.pathname}${url.search}`, { ...init, headers });
    const raw = await res.text();
    seen.push({ url: url.pathname, raw });
    const back = new Headers();
    for (const [name, value] of res.headers) {
      back.set(
        name.replace(PLATFORM_HEADER, 'x-shopify-'),
        name === 'link' ? value.replaceAll(simShopBase(url.host), `https://${url.host}`) : value,
      );
    }
    return new Response(raw, { status: res.status, statusText: res.statusText, headers: back });
  }) as typeof fetch;
}

/** What `shopify.webhooks.validate` answered for each delivery the simulator made to this receiver. */
interface Validated {
  result: Awaited<ReturnType<Shopify['webhooks']['validate']>>;
  body: string;
}

async function sdkWebhookReceiver(shopify: Shopify): Promise<{ address: string; validated: Validated[]; close(): Promise<void> }> {
  const validated: Validated[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const headers: IncomingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers)) headers[name.replace(PLATFORM_HEADER, 'x-shopify-')] = value;
      void shopify.webhooks
        .validate({ rawBody, rawRequest: { headers, method: req.method, url: req.url }, rawResponse: res })
        .then((result) => {
          validated.push({ result, body: rawBody });
          res.writeHead(result.valid ? 200 : 401).end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    validated,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
      }),
  };
}

describe('the official commerce SDK (@shopify/shopify-api 13, API 2025-04) against our simulator', () => {
  let s: Installed;
  let shopify: Shopify;
  let session: Session;
  const seen: Array<{ url: string; raw: string }> = [];
  const nodeFetch = abstractFetch;

  before(async () => {
    s = await installedSimulator();
    shopify = shopifyApi({
      apiKey: APP.clientId,
      apiSecretKey: APP.clientSecret,
      hostName: 'app.example',
      apiVersion: ApiVersion.April25,
      isEmbeddedApp: false,
      scopes: SCOPES,
      logger: { level: LogSeverity.Error, log: async () => undefined },
    });
    setAbstractFetchFunc(loopbackFetch(s.sim, seen));
    session = new Session({ id: `offline_${SHOP}`, shop: SHOP, state: 'installed', isOnline: false, accessToken: s.token });
  });
  after(async () => {
    setAbstractFetchFunc(nodeFetch);
    await s.sim.stop();
  });

  it('pins the version the service pins', () => {
    assert.equal(ApiVersion.April25, API_VERSION);
  });

  it('the REST client reads shop.json; the id on the wire is a JSON integer the SDK reads losslessly', async () => {
    const client = new shopify.clients.Rest({ session });
    const res = await client.get<{ shop: { id: string; myshopify_domain: string; name: string } }>({ path: 'shop' });
    assert.equal(res.body.shop.myshopify_domain, SHOP);
    assert.equal(res.body.shop.name, 'Maple Goods');
    const raw = JSON.parse(seen.at(-1)!.raw) as { shop: { id: unknown } };
    assert.equal(typeof raw.shop.id, 'number');
    assert.equal(res.body.shop.id, String(raw.shop.id));
  });

  it('the REST client pages through every order by the Link header cursors, and reads one order by its integer id', async () => {
    const added = s.sim.addOrders(SHOP, 7);
    const client = new shopify.clients.Rest({ session });
    const ids: string[] = [];
    let query: Record<string, string | number> | undefined = { status: 'any', limit: 3 };
    let path = 'orders';
    for (let pages = 0; query; pages++) {
      assert.ok(pages < 10, 'the cursors end');
      const res: Awaited<
        ReturnType<typeof client.get<{ orders: Array<{ id: string; line_items: Array<{ id: string }>; customer: { id: string } | null }> }>>
      > = await client.get({ path, query });
      for (const order of res.body.orders) {
        ids.push(order.id);
        assert.ok(order.line_items.every((li) => /^\d+$/.test(li.id)));
        assert.ok(order.customer === null || /^\d+$/.test(order.customer.id));
      }
      path = res.pageInfo?.nextPage?.path ?? path;
      query = res.pageInfo?.nextPage?.query as Record<string, string> | undefined;
    }
    assert.deepEqual([...ids].sort(), added.map((o) => String(o.id)).sort());
    const one = await client.get<{ order: { id: string; name: string } }>({ path: `orders/${added[3].id}` });
    assert.deepEqual([one.body.order.id, one.body.order.name], [String(added[3].id), added[3].name]);
  });

  it('the REST client creates, reads and deletes a webhook subscription', async () => {
    const client = new shopify.clients.Rest({ session });
    const created = await client.post<{ webhook: { id: string; topic: string; api_version: string } }>({
      path: 'webhooks',
      data: { webhook: { topic: 'orders/updated', address: 'https://app.example/api/webhooks/commerce', format: 'json' } },
    });
    assert.deepEqual([created.body.webhook.topic, created.body.webhook.api_version], ['orders/updated', API_VERSION]);
    assert.equal(typeof (JSON.parse(seen.at(-1)!.raw) as { webhook: { id: unknown } }).webhook.id, 'number');
    const read = await client.get<{ webhook: { id: string } }>({ path: `webhooks/${created.body.webhook.id}` });
    assert.equal(read.body.webhook.id, created.body.webhook.id);
    await client.delete({ path: `webhooks/${created.body.webhook.id}` });
    await assert.rejects(
      client.get({ path: `webhooks/${created.body.webhook.id}` }),
      (err) => err instanceof HttpResponseError && err.response.code === 404,
    );
  });

  it("the SDK validates the simulator's webhook deliveries (base64 HMAC over the raw body) and refuses a wrong secret", async () => {
    const receiver = await sdkWebhookReceiver(shopify);
    try {
      const [order] = s.sim.addOrders(SHOP, [{ email: 'sdk@example.test', note: 'Crème brûlée ☕' }]);
      const good = await s.sim.deliver(SHOP, 'orders/updated', order, { address: receiver.address, retrySchedule: [] });
      assert.equal(good.delivered, true);
      const [accepted] = receiver.validated;
      assert.equal(accepted.result.valid, true, JSON.stringify(accepted.result));
      if (accepted.result.valid) {
        assert.deepEqual(
          [accepted.result.topic, accepted.result.domain, accepted.result.apiVersion, accepted.result.webhookId],
          ['ORDERS_UPDATED', SHOP, API_VERSION, good.webhookId],
        );
      }
      assert.equal(typeof (JSON.parse(accepted.body) as { id: unknown }).id, 'number');

      const forged = await s.sim.deliver(SHOP, 'orders/updated', order, {
        address: receiver.address,
        retrySchedule: [],
        clientSecret: 'not-the-secret',
      });
      assert.deepEqual([forged.delivered, forged.attempts[0].status], [false, 401]);
      const refused = receiver.validated[1].result;
      assert.deepEqual([refused.valid, !refused.valid && refused.reason], [false, 'invalid_hmac']);
    } finally {
      await receiver.close();
    }
  });

  it("the SDK validates the hex HMAC of the simulator's OAuth callback query", async () => {
    const res = await fetch(
      authorizeUrl(s.sim, { client_id: APP.clientId, scope: SCOPES.join(','), redirect_uri: 'https://app.example/cb', state: 'nonce-sdk' }),
      { redirect: 'manual' },
    );
    const query = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
    assert.equal(await shopify.utils.validateHmac(query), true);
    assert.equal(await shopify.utils.validateHmac({ ...query, state: 'tampered' }), false);
  });
});
