import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { mintJobToken } from '../../src/jobs/jobToken';
import { createLogger } from '../../src/logger';
import { newAccount, newAgentKey, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { startPrivateApp } from '../helpers/privateApp';
import { jobUrl, startTestJob } from './jobTestKit';
import { openEvents } from './sseKit';

const tokensUrl = (id: string, base = '/api/jobs') => `${jobUrl(id, base)}/tokens`;
const eventsWith = (id: string, token: string) => `${jobUrl(id)}/events?token=${encodeURIComponent(token)}`;

describe('job tokens: POST /api/jobs/{id}/tokens and ?token= on the event stream', function () {
  this.timeout(60_000);
  let owner: TestAccount;
  let stranger: TestAccount;
  let jobA: string;
  let jobB: string;

  before(async () => {
    [owner, stranger] = await Promise.all([newAccount('Tokens Co'), newAccount('Other Tokens Co')]);
    const started = await Promise.all([
      startTestJob(owner.ownerToken, 'stepped', { steps: 200, stepMs: 200 }),
      startTestJob(owner.ownerToken, 'stepped', { steps: 200, stepMs: 200 }),
    ]);
    [jobA, jobB] = started.map((s) => s.body.id);
  });

  after(async () => {
    for (const id of [jobA, jobB]) await call('POST', `${jobUrl(id)}/cancel`, { token: owner.ownerToken });
  });

  async function tokenFor(id: string, body: unknown = {}) {
    const res = await call('POST', tokensUrl(id), { token: owner.ownerToken, body });
    assert.equal(res.status, 201, res.text);
    return res.body as { token: string; expires_at: string; events_url: string };
  }

  it('a job token opens the event stream of its job without the account credential, cross-origin', async () => {
    const before = Date.now();
    const minted = await tokenFor(jobA);
    assert.match(minted.token, /^wyjt_[\w-]+\.[\w-]+$/);
    const ttl = (Date.parse(minted.expires_at) - before) / 1000;
    assert.ok(ttl > 890 && ttl <= 901, `default lifetime ${ttl} s`);
    assert.equal(minted.events_url, `${harness().baseUrl}${jobUrl(jobA)}/events?token=${minted.token}`);

    const stream = await openEvents(minted.events_url.slice(harness().baseUrl.length));
    assert.equal(stream.status, 200, stream.text);
    assert.equal(stream.headers.get('access-control-allow-origin'), '*');
    assert.equal(stream.headers.get('access-control-allow-credentials'), null);
    const first = await stream.next();
    assert.equal(first?.event, 'status');
    assert.equal(first.data.id, jobA);
    stream.close();
  });

  it('a token for one job never opens another job, and opens nothing but the event stream', async () => {
    const { token } = await tokenFor(jobA);
    const other = await openEvents(eventsWith(jobB, token));
    assert.equal(other.status, 401);
    assert.equal(JSON.parse(other.text).code, 'job_token_invalid');

    const asBearer = await call('GET', jobUrl(jobA), { token });
    assert.equal(asBearer.status, 401);
    const inQuery = await call('GET', `${jobUrl(jobA)}?token=${token}`);
    assert.equal(inQuery.status, 401);
    assert.equal(inQuery.body.code, 'missing_credentials');
    const mint = await call('POST', `${tokensUrl(jobA)}?token=${token}`, { body: {} });
    assert.equal(mint.status, 401);
  });

  it('an expired token answers 401 job_token_expired', async () => {
    const { token } = mintJobToken(harness().deps.secretHashKey, owner.accountId, jobA, 60, Date.now() - 61_000);
    const res = await openEvents(eventsWith(jobA, token));
    assert.equal(res.status, 401);
    assert.equal(JSON.parse(res.text).code, 'job_token_expired');
  });

  it('an altered, foreign-keyed or malformed token answers 401 job_token_invalid', async () => {
    const { token } = await tokenFor(jobA);
    const [signed, mac] = token.split('.');
    const payload = JSON.parse(Buffer.from(signed.slice('wyjt_'.length), 'base64url').toString());
    const reworded = (claims: object) => `wyjt_${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${mac}`;
    const flippedMac = `${signed}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    const otherKey = mintJobToken(randomBytes(32).toString('hex'), owner.accountId, jobA, 600).token;
    const cases = [
      reworded({ ...payload, e: payload.e + 86_400 }),
      reworded({ ...payload, a: stranger.accountId }),
      flippedMac,
      otherKey,
      `${signed}.`,
      'wyjt_nonsense',
      'not-a-token',
    ];
    for (const bad of cases) {
      const res = await openEvents(eventsWith(jobA, bad));
      assert.equal(res.status, 401, bad);
      assert.equal(JSON.parse(res.text).code, 'job_token_invalid', bad);
    }
  });

  it('ttl_seconds is 60–3600; another account cannot mint a token for the job; a read-only jobs:read key can', async () => {
    const short = await tokenFor(jobA, { ttl_seconds: 60 });
    assert.ok(Date.parse(short.expires_at) - Date.now() <= 60_000);
    for (const ttl_seconds of [59, 3601, 1.5]) {
      const res = await call('POST', tokensUrl(jobA), { token: owner.ownerToken, body: { ttl_seconds } });
      assert.equal(res.status, 400, `ttl ${ttl_seconds}`);
      assert.equal(res.body.code, 'validation_failed');
    }
    const foreign = await call('POST', tokensUrl(jobA), { token: stranger.ownerToken, body: {} });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'job_not_found');
    const reader = await newAgentKey(owner.accountId, ['jobs:read'], true);
    const viaAgent = await call('POST', tokensUrl(jobA, '/api/agent/jobs'), { token: reader, body: { ttl_seconds: 120 } });
    assert.equal(viaAgent.status, 201, viaAgent.text);
    assert.equal((await openEvents(eventsWith(jobA, viaAgent.body.token))).status, 200);
  });

  it('a job token never reaches the logs', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await startPrivateApp([], { logger: createLogger('trace', sink) });
    try {
      const minted = await app.call('POST', tokensUrl(jobA), { token: owner.ownerToken, body: {} });
      assert.equal(minted.status, 201);
      const token: string = minted.body.token;
      const stream = await openEvents(eventsWith(jobA, token), { baseUrl: app.baseUrl });
      await stream.next();
      stream.close();
      await openEvents(eventsWith(jobB, token), { baseUrl: app.baseUrl });
      await openEvents(`${jobUrl(jobA)}/events?token=${token}x`, { baseUrl: app.baseUrl });
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.ok(
        lines.some((l) => l.includes('"route"')),
        'the access log wrote nothing',
      );
      const signature = token.split('.')[1];
      for (const line of lines) {
        assert.ok(!line.includes(signature) && !line.includes('wyjt_'), `a log line holds the token: ${line}`);
      }
    } finally {
      await app.close();
    }
  });
});
