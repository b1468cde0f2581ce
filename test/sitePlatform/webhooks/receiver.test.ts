import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { WebflowClient } from 'webflow-api';
import { checkPlatformSignature, MAX_SKEW_MS } from '../../../src/sitePlatform/webhooks/receiverSignature';
import { TARGET_CACHE_TTL_MS } from '../../../src/sitePlatform/webhooks/receiver';
import { harness } from '../../helpers/harness';
import {
  addSimSite,
  bodyEventId,
  deliver,
  envelope,
  eventRows,
  fannedOut,
  formPayload,
  newConnection,
  signDelivery,
  startReceiverWorld,
  unverifiedRows,
  type ReceiverWorld,
  type TestConnection,
} from './receiverKit';

// Non-ASCII text and JSON-escaped slashes: a re-serialised body differs in bytes from what the platform signed.
const rawItemChanged = (siteId: string, itemId: string) =>
  `{"triggerType":"collection_item_changed","payload":{"id":"${itemId}","siteId":"${siteId}","workspaceId":"ws_1",` +
  `"collectionId":"col_1","fieldData":{"name":"Crème brûlée ☕ für Zoë","slug":"creme","link":"https:\\/\\/example.test\\/a"}}}`;

describe('site platform webhook receiver', () => {
  let rw: ReceiverWorld;
  let oauth: TestConnection;
  let siteToken: TestConnection;
  before(async () => {
    rw = await startReceiverWorld();
    oauth = await newConnection(rw, { authKind: 'oauth' });
    siteToken = await newConnection(rw, { authKind: 'site_token' });
  });
  after(async () => {
    await rw?.close();
  });

  describe('step 1 and 4: the HMAC over the raw bytes', () => {
    it('a signed delivery over a non-ASCII body with escaped slashes verifies: 200, recorded verified with verification hmac', async () => {
      const raw = rawItemChanged(oauth.siteIds[0], `item_${randomUUID()}`);
      assert.ok(raw.includes('\\/') && /[^\x00-\x7f]/.test(raw));
      const res = await deliver(rw, oauth, raw);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { received: true });
      const row = await harness()
        .db('site_platform_inbound_events')
        .where({ account_id: oauth.accountId, event_id: bodyEventId('collection_item_changed', raw) })
        .first();
      assert.equal(row.verified, true);
      assert.equal(row.verification, 'hmac');
      assert.equal(row.site_id, oauth.siteIds[0]);
      assert.equal(row.payload.fieldData.name, 'Crème brûlée ☕ für Zoë');
    });

    it('the same JSON re-serialised (slashes unescaped) does not verify: 401', async () => {
      const raw = rawItemChanged(oauth.siteIds[0], `item_${randomUUID()}`);
      const reserialised = JSON.stringify(JSON.parse(raw));
      assert.notEqual(reserialised, raw);
      const timestamp = String(Date.now());
      const res = await deliver(rw, oauth, reserialised, {
        timestamp,
        signature: signDelivery(oauth.secret!, timestamp, Buffer.from(raw)),
      });
      assert.equal(res.status, 401, res.text);
    });

    it("the official SDK's verifySignature accepts our crafted deliveries, and a signature made the SDK's way (WebCrypto, hex) is accepted by the receiver", async () => {
      const sdk = new WebflowClient({ accessToken: 'unused' });
      const raw = rawItemChanged(oauth.siteIds[0], `item_${randomUUID()}`);
      const timestamp = String(Date.now());
      const ours = signDelivery(oauth.secret!, timestamp, Buffer.from(raw));
      assert.equal(
        await sdk.webhooks.verifySignature({
          headers: { 'x-webflow-timestamp': timestamp, 'x-webflow-signature': ours },
          body: raw,
          secret: oauth.secret!,
        }),
        true,
      );
      // The SDK's algorithm: HMAC-SHA256 (WebCrypto) of the string `${timestamp}:${body}`, hex.
      const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(oauth.secret!), { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]);
      const sdkWay = Buffer.from(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${timestamp}:${raw}`))).toString('hex');
      const res = await deliver(rw, oauth, raw, { timestamp, signature: sdkWay });
      assert.equal(res.status, 200, res.text);
    });

    it("an OAuth connection naming its own client (oauth_app_id) verifies with that client's secret, not the service-wide one", async () => {
      const own = await newConnection(rw, { authKind: 'oauth', ownClient: true });
      assert.notEqual(own.secret, rw.serviceSecret);
      const body = envelope('site_publish', { siteId: own.siteIds[0], publishedOn: new Date().toISOString(), domains: [] });
      assert.equal((await deliver(rw, own, body, { secret: rw.serviceSecret })).status, 401);
      assert.equal((await deliver(rw, own, body)).status, 200);
    });

    it('clock skew: exactly 5 minutes either way verifies, 5 minutes and 1 second either way is refused (pure check, fixed clock)', () => {
      const secret = 'edge-secret';
      const body = Buffer.from('{"a":"é"}');
      const now = 1_790_000_000_000;
      const at = (offset: number) => {
        const ts = String(now + offset);
        return checkPlatformSignature(secret, body, ts, signDelivery(secret, ts, body), now);
      };
      assert.equal(MAX_SKEW_MS, 300_000);
      assert.equal(at(-300_000), undefined);
      assert.equal(at(300_000), undefined);
      assert.equal(at(-301_000), 'timestamp_skewed');
      assert.equal(at(301_000), 'timestamp_skewed');
    });

    it('clock skew over HTTP: a timestamp 4 min 58 s old or ahead is accepted; 5 min 1 s old or ahead is 401', async () => {
      for (const [offset, status] of [
        [-298_000, 200],
        [298_000, 200],
        [-301_000, 401],
        [301_000, 401],
      ] as const) {
        const body = envelope('comment_created', { siteId: oauth.siteIds[0], threadId: randomUUID(), content: 'hi' });
        const res = await deliver(rw, oauth, body, { timestamp: String(Date.now() + offset) });
        assert.equal(res.status, status, `offset ${offset}: ${res.text}`);
      }
    });

    it('a missing, wrong or stale signature is 401 with the generic body and one bounded unverified row (reason, size, digest; no body, no site)', async () => {
      const c = await newConnection(rw, { authKind: 'oauth' });
      const raw = JSON.stringify(envelope('site_publish', { siteId: c.siteIds[0], secretField: 'do-not-store-me' }));
      const cases = [
        { signature: '' },
        { secret: 'not-the-secret' },
        { timestamp: String(Date.now() - 3_600_000) },
        { timestamp: 'yesterday' },
        { signature: 'zz' },
      ];
      for (const options of cases) {
        const res = await deliver(rw, c, raw, options);
        assert.equal(res.status, 401, res.text);
        assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message', 'request_id', 'status']);
        assert.equal(res.body.code, 'unauthorized');
      }
      const rows = await unverifiedRows(c.connectionId);
      assert.equal(rows.length, cases.length);
      for (const row of rows) {
        assert.equal(row.verified, false);
        assert.equal(row.verification, 'failed');
        assert.equal(row.site_id, null);
        assert.equal(row.trigger_type, null);
        assert.deepEqual(Object.keys(row.payload).sort(), ['bytes', 'reason', 'sha256']);
        assert.equal(row.payload.bytes, Buffer.byteLength(raw));
        assert.equal(row.payload.sha256, createHash('sha256').update(raw).digest('hex'));
        assert.ok(!JSON.stringify(row.payload).includes('do-not-store-me'));
      }
      assert.deepEqual(
        rows.map((r) => r.payload.reason),
        ['signature_missing', 'signature_mismatch', 'timestamp_skewed', 'timestamp_invalid', 'signature_mismatch'],
      );
    });

    it('the 51st unverified delivery within the hour writes nothing, even when 60 arrive at once (counted under a per-connection lock)', async () => {
      const c = await newConnection(rw, { authKind: 'oauth' });
      const body = envelope('site_publish', { siteId: c.siteIds[0] });
      const answers = await Promise.all(Array.from({ length: 60 }, () => deliver(rw, c, body, { secret: 'wrong' })));
      assert.ok(answers.every((r) => r.status === 401));
      assert.equal((await unverifiedRows(c.connectionId)).length, 50);
      assert.equal((await deliver(rw, c, body, { secret: 'wrong' })).status, 401);
      assert.equal((await unverifiedRows(c.connectionId)).length, 50);
      // Rows older than an hour no longer count.
      await harness()
        .db('site_platform_inbound_events')
        .where({ connection_id: c.connectionId, verified: false })
        .update({ received_at: new Date(Date.now() - 2 * 3_600_000) });
      assert.equal((await deliver(rw, c, body, { secret: 'wrong' })).status, 401);
      assert.equal((await unverifiedRows(c.connectionId)).length, 51);
    });
  });

  describe('steps 2 and 3: the connection and the URL token', () => {
    it('an unknown connection, a malformed id, a disconnected connection or one without a token hash is 404 with the generic body, nothing written', async () => {
      const disconnected = await newConnection(rw, { authKind: 'site_token', disconnected: true });
      const unregistered = await newConnection(rw, { authKind: 'site_token', tokenHash: null });
      const cases: Array<[TestConnection, { connectionId?: string }]> = [
        [siteToken, { connectionId: randomUUID() }],
        [siteToken, { connectionId: 'not-a-uuid' }],
        [disconnected, {}],
        [unregistered, {}],
      ];
      for (const [c, options] of cases) {
        const before = (await eventRows(c.accountId)).length;
        const res = await deliver(rw, c, envelope('site_publish', { siteId: c.siteIds[0] }), options);
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.code, 'not_found');
        assert.equal(res.body.message, 'not found');
        assert.equal((await eventRows(c.accountId)).length, before);
      }
    });

    it('a connection disconnected after deliveries answers 404 once the 1 s lookup reuse has passed; a changed token hash likewise', async () => {
      const c = await newConnection(rw, { authKind: 'site_token' });
      const body = () => envelope('comment_created', { siteId: c.siteIds[0], threadId: randomUUID(), content: 'x' });
      assert.equal((await deliver(rw, c, body())).status, 200);
      await harness()
        .db('site_platform_connections')
        .where({ id: c.connectionId })
        .update({ disconnected_at: new Date(), access_token_enc: null });
      await new Promise((resolve) => setTimeout(resolve, TARGET_CACHE_TTL_MS + 100));
      const before = (await eventRows(c.accountId)).length;
      const res = await deliver(rw, c, body());
      assert.equal(res.status, 404, res.text);
      assert.equal((await eventRows(c.accountId)).length, before);

      const r = await newConnection(rw, { authKind: 'site_token' });
      assert.equal((await deliver(rw, r, body())).status, 200);
      await harness()
        .db('site_platform_connections')
        .where({ id: r.connectionId })
        .update({ webhook_url_token_hash: 'f'.repeat(64) });
      await new Promise((resolve) => setTimeout(resolve, TARGET_CACHE_TTL_MS + 100));
      assert.equal((await deliver(rw, r, body())).status, 401);
    });

    it('a wrong URL token is 401 with the generic body and nothing written, for OAuth and site-token connections alike', async () => {
      for (const c of [oauth, siteToken]) {
        const before = (await eventRows(c.accountId)).length;
        const res = await deliver(rw, c, envelope('site_publish', { siteId: c.siteIds[0] }), { urlToken: `${c.urlToken.slice(0, -2)}xx` });
        assert.equal(res.status, 401, res.text);
        assert.equal(res.body.code, 'unauthorized');
        assert.equal((await eventRows(c.accountId)).length, before, 'not even an unverified row');
      }
    });

    it("cross-account: another account's URL token never opens this connection, and its site is not this connection's", async () => {
      const other = await newConnection(rw, { authKind: 'site_token' });
      const res = await deliver(rw, siteToken, envelope('site_publish', { siteId: siteToken.siteIds[0] }), { urlToken: other.urlToken });
      assert.equal(res.status, 401);
      const foreign = await deliver(rw, siteToken, envelope('site_publish', { siteId: other.siteIds[0] }));
      assert.equal(foreign.status, 200);
      assert.deepEqual(foreign.body, { ignored: true });
      assert.equal((await eventRows(other.accountId)).length, 0);
    });
  });

  describe('steps 5 to 7', () => {
    it('a site-token delivery is recorded with verification url_token (no signature), stamps last_received_at and is fanned out', async () => {
      const { db } = harness();
      const siteId = siteToken.siteIds[0];
      await db('site_platform_webhook_subscriptions').insert({
        account_id: siteToken.accountId,
        connection_id: siteToken.connectionId,
        site_id: siteId,
        webhook_id: `wh_${randomUUID()}`,
        trigger_type: 'comment_created',
        endpoint_url: 'http://example.test/hook',
      });
      const raw = JSON.stringify(envelope('comment_created', { siteId, threadId: randomUUID(), content: 'Grüße' }));
      const res = await deliver(rw, siteToken, raw);
      assert.equal(res.status, 200, res.text);
      const row = await fannedOut(siteToken.accountId, siteId, bodyEventId('comment_created', raw));
      assert.equal(row.verification, 'url_token');
      assert.equal(row.verified, true);
      const sub = await db('site_platform_webhook_subscriptions')
        .where({ connection_id: siteToken.connectionId, trigger_type: 'comment_created' })
        .first();
      assert.ok(sub.last_received_at, 'last_received_at stamped');
    });

    it('an unparseable envelope, an unregistered trigger, a payload without a site, or a site the connection does not reach is 200 ignored, nothing written', async () => {
      const siteId = siteToken.siteIds[0];
      const before = (await eventRows(siteToken.accountId)).length;
      for (const body of [
        '{"triggerType": "site_publish", "payload": ',
        'null',
        JSON.stringify(envelope('order_created', { siteId })),
        JSON.stringify(envelope('site_publish', {})),
        JSON.stringify({ triggerType: 'site_publish', payload: 'x' }),
        JSON.stringify(envelope('site_publish', { siteId: 'site_not_shared' })),
        JSON.stringify(envelope('site_publish', { siteId, note: 'nul \u0000 here' })),
      ]) {
        const res = await deliver(rw, siteToken, body);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { ignored: true });
      }
      assert.equal((await eventRows(siteToken.accountId)).length, before);
    });

    it('a duplicate (account, site, event id) answers 200 replay true and is not fanned out again', async () => {
      const siteId = siteToken.siteIds[0];
      const raw = JSON.stringify(envelope('page_metadata_updated', { siteId, pageId: `page_${randomUUID()}`, pageTitle: 'About' }));
      assert.deepEqual((await deliver(rw, siteToken, raw)).body, { received: true });
      const first = await fannedOut(siteToken.accountId, siteId, bodyEventId('page_metadata_updated', raw));
      const again = await deliver(rw, siteToken, raw);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, { received: true, replay: true });
      // Concurrent copies: one is recorded, the others are replays.
      const raw2 = JSON.stringify(envelope('page_metadata_updated', { siteId, pageId: `page_${randomUUID()}`, pageTitle: 'Team' }));
      const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(rw, siteToken, raw2)));
      assert.equal(answers.filter((r) => r.body.replay !== true).length, 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const rows = await harness().db('site_platform_inbound_events').where({ account_id: siteToken.accountId, event_id: first.event_id });
      assert.equal(rows.length, 1);
      assert.equal(new Date(rows[0].fanned_out_at).getTime(), new Date(first.fanned_out_at).getTime(), 'fanned out once');
    });

    it('the same body delivered for two accounts sharing a site is recorded once per account', async () => {
      const shared = addSimSite(rw);
      const a = await newConnection(rw, { authKind: 'site_token', siteIds: [shared] });
      const b = await newConnection(rw, { authKind: 'site_token', siteIds: [shared] });
      const raw = JSON.stringify(envelope('site_publish', { siteId: shared, publishedOn: '2026-11-26T10:00:00Z' }));
      assert.deepEqual((await deliver(rw, a, raw)).body, { received: true });
      assert.deepEqual((await deliver(rw, b, raw)).body, { received: true });
      assert.equal((await eventRows(a.accountId)).length, 1);
      assert.equal((await eventRows(b.accountId)).length, 1);
    });
  });

  describe('form submissions and the ledger', () => {
    it('a form submission is written to the ledger with the event, keyed platform:<account>:<submission id>, and processed by the fan-out', async () => {
      const siteId = oauth.siteIds[0];
      const payload = formPayload(siteId);
      const res = await deliver(rw, oauth, envelope('form_submission', payload));
      assert.equal(res.status, 200, res.text);
      const event = await fannedOut(oauth.accountId, siteId, payload.id as string);
      assert.equal(event.fan_out.submission, 'processed');
      const ledger = await harness()
        .db('form_submissions')
        .where({ account_id: oauth.accountId, idempotency_key: `platform:${oauth.accountId}:${payload.id}` })
        .first();
      assert.ok(ledger, 'ledger row');
      assert.ok(ledger.processed_at, 'processed by the fan-out');
      const again = await deliver(rw, oauth, envelope('form_submission', { ...payload }));
      assert.deepEqual(again.body, { received: true, replay: true });
    });

    it('a failed ledger write answers 503 ledger_unavailable and leaves no event row; the redelivery after recovery is recorded, not a replay', async () => {
      const { db } = harness();
      const siteId = siteToken.siteIds[0];
      const payload = formPayload(siteId);
      const body = envelope('form_submission', payload);
      await db.raw('alter table form_submissions add constraint h3_ledger_down check (false) not valid');
      let res;
      try {
        res = await deliver(rw, siteToken, body);
      } finally {
        await db.raw('alter table form_submissions drop constraint h3_ledger_down');
      }
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'ledger_unavailable');
      assert.equal(
        await db('site_platform_inbound_events').where({ account_id: siteToken.accountId, event_id: payload.id }).first(),
        undefined,
      );
      const redelivery = await deliver(rw, siteToken, body);
      assert.equal(redelivery.status, 200, redelivery.text);
      assert.deepEqual(redelivery.body, { received: true });
      await fannedOut(siteToken.accountId, siteId, payload.id as string);
      assert.ok(
        await db('form_submissions')
          .where({ account_id: siteToken.accountId, idempotency_key: `platform:${siteToken.accountId}:${payload.id}` })
          .first(),
      );
    });

    it('a submission with no id, no name and no timestamp is permanent: 200, the event kept, reported by code in the log, not in the ledger', async () => {
      const siteId = siteToken.siteIds[0];
      const raw = JSON.stringify(envelope('form_submission', { siteId, data: { Email: 'x@example.test' } }));
      const ledger = () =>
        harness().db('form_submissions').where({ account_id: siteToken.accountId }).count<{ count: string }[]>('* as count');
      const [before] = await ledger();
      const res = await deliver(rw, siteToken, raw);
      assert.equal(res.status, 200, res.text);
      const event = await fannedOut(siteToken.accountId, siteId, bodyEventId('form_submission', raw));
      assert.equal(event.fan_out.submission, 'permanent');
      assert.equal((await ledger())[0].count, before.count);
      assert.ok(rw.log.lines.some((l) => l.includes('permanent') && l.includes(siteToken.connectionId)));
    });
  });

  it('the body, the signature and the URL token never reach the log', async () => {
    const marker = `body-marker-${randomUUID()}`;
    const raw = JSON.stringify(envelope('comment_created', { siteId: oauth.siteIds[0], content: marker }));
    const timestamp = String(Date.now());
    const signature = signDelivery(oauth.secret!, timestamp, Buffer.from(raw));
    const badSignature = signDelivery('wrong', timestamp, Buffer.from(raw));
    assert.equal((await deliver(rw, oauth, raw, { timestamp, signature })).status, 200);
    assert.equal((await deliver(rw, oauth, raw, { timestamp, signature: badSignature })).status, 401);
    assert.equal((await deliver(rw, oauth, raw, { urlToken: 'wrong-token-value' })).status, 401);
    await fannedOut(oauth.accountId, oauth.siteIds[0], bodyEventId('comment_created', raw));
    const log = rw.log.text();
    assert.ok(log.length > 0, 'something was logged');
    for (const secret of [marker, signature, badSignature, oauth.urlToken, 'wrong-token-value', rw.serviceSecret]) {
      assert.ok(!log.includes(secret), `the log holds ${secret.slice(0, 12)}…`);
    }
  });
});
