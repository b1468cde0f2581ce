import assert from 'node:assert/strict';
import { OPERATIONS, apiBaseFor, getOperation, platformPath, type OperationDef } from '../../../src/sitePlatform/registry';
import { startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { OPS, auditRows } from './fixtures';
import { NOT_SAMPLED, SAMPLES, sampleTenant, type From, type SampleTenant } from './samples';

/** Reads go as GET with every parameter in the query (arrays and objects JSON-encoded), writes as POST with confirm where gated. */
function send(world: SiteWorld, t: SampleTenant, op: OperationDef, params: Record<string, unknown>) {
  if (op.kind === 'read') {
    const query = new URLSearchParams({ action: op.name });
    for (const [k, v] of Object.entries(params)) query.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    return world.app.call('GET', `${OPS}?${query.toString()}`, { token: t.account.agentKey });
  }
  const body = { action: op.name, ...params, ...(op.confirmGated ? { confirm: true } : {}) };
  return world.app.call('POST', OPS, { token: t.account.agentKey, body });
}

/** `METHOD /base/path` of the one platform request the operation should make with these parameters. */
const expectedCall = (op: OperationDef, params: Record<string, unknown>) =>
  `${op.platform!.method} /${apiBaseFor(op, params)}${platformPath(op, params)}`;

describe('every registry operation runs against the site platform simulator through the agent operation route', () => {
  let world: SiteWorld;
  let t: SampleTenant;
  before(async () => {
    world = await startSiteWorld();
    t = await sampleTenant(world, true);
  });
  after(async () => {
    await world.close();
  });

  it('every platform operation has a sample (only the service action project_cms_provider_set has none: it never calls the platform)', () => {
    const sampled = new Set(SAMPLES.map((x) => x.action));
    const missing = OPERATIONS.map((op) => op.name).filter((name) => !sampled.has(name) && !NOT_SAMPLED.has(name));
    assert.deepEqual(missing, [], `operations without a sample: ${missing.join(', ')}`);
    const unknown = [...sampled].filter((name) => !getOperation(name) || NOT_SAMPLED.has(name));
    assert.deepEqual(unknown, [], 'samples must name registry operations that are not excluded');
    assert.equal(sampled.size, SAMPLES.length, 'one sample per operation');
    assert.equal(OPERATIONS.length - NOT_SAMPLED.size, SAMPLES.length);
  });

  it('each operation reaches the simulator with a request it accepts, answers 200 with the platform body under result, and a write leaves one audit row platform.<action>', async function () {
    this.timeout(180_000);
    const results = new Map<string, any>();
    const from: From = (action) => {
      if (!results.has(action)) throw new Error(`${action} has not answered`);
      return results.get(action);
    };
    const failures: string[] = [];
    for (const sample of SAMPLES) {
      const op = getOperation(sample.action)!;
      let params: Record<string, unknown>;
      try {
        params = sample.params(t.site, from);
      } catch (err) {
        failures.push(`${op.name}: no parameters (${(err as Error).message})`);
        continue;
      }
      let mark = world.sim.requests().length;
      const audited = (await auditRows(t.account.accountId)).length;
      let res = await send(world, t, op, params);
      // The connection's own budget (60 calls a minute; composites spend several) is the caller's to honour: wait it out.
      while (res.status === 429 && res.body?.code === 'rate_limited') {
        await new Promise((resolve) => setTimeout(resolve, (res.body.retry_after_seconds ?? 1) * 1000));
        mark = world.sim.requests().length;
        res = await send(world, t, op, params);
      }
      const calls = world.sim.requests().slice(mark);
      const want = expectedCall(op, params);
      // A GET the platform answered 429 is retried once after Retry-After (doc2 Limits): the retry is the call that counts.
      const hit = calls.filter((c) => `${c.method} ${c.path}` === want).at(-1);
      if (res.status !== 200) {
        failures.push(
          `${op.name}: ${res.status} ${res.body?.code ?? ''} ${res.body?.message ?? res.text} [platform: ${calls.map((c) => `${c.method} ${c.path} ${c.status}`).join(', ') || 'none'}]`,
        );
        continue;
      }
      if (!hit || hit.status >= 300) {
        failures.push(
          `${op.name}: expected ${want} answered 2xx, saw ${calls.map((c) => `${c.method} ${c.path} ${c.status}`).join(', ') || 'no platform call'}`,
        );
        continue;
      }
      if (res.body.action !== op.name) failures.push(`${op.name}: answered action ${res.body.action}`);
      // A 204 has no body; anything else is the platform's JSON object passed through as result.
      const shapeOk = hit.status === 204 ? res.body.result === null : typeof res.body.result === 'object' && res.body.result !== null;
      if (!shapeOk) failures.push(`${op.name}: platform ${hit.status} but result ${JSON.stringify(res.body.result)}`);
      results.set(op.name, res.body.result);
      const rows = (await auditRows(t.account.accountId)).slice(audited).map((r: { action: string }) => r.action);
      const wantRows = op.kind === 'write' ? [`platform.${op.name}`] : [];
      if (JSON.stringify(rows) !== JSON.stringify(wantRows))
        failures.push(`${op.name}: audit rows ${JSON.stringify(rows)}, expected ${JSON.stringify(wantRows)}`);
    }
    assert.deepEqual(failures, []);
  });

  it('Enterprise-only operations answer 402 not_enterprise_plan_site on a non-Enterprise site, from the platform, and audit nothing', async () => {
    const plain = await sampleTenant(world, false);
    const enterpriseOps = OPERATIONS.filter((op) => op.enterpriseOnly);
    assert.equal(enterpriseOps.length, 14);
    // Ids of objects the refused creates would have made: the plan check comes before any lookup.
    const from: From = () => ({ id: '0'.repeat(24) });
    const failures: string[] = [];
    for (const op of enterpriseOps) {
      const sample = SAMPLES.find((x) => x.action === op.name)!;
      const res = await send(world, plain, op, sample.params(plain.site, from));
      if (res.status !== 402 || res.body.code !== 'not_enterprise_plan_site' || res.body.upstreamStatus !== 402) {
        failures.push(`${op.name}: ${res.status} ${res.body?.code} upstream ${res.body?.upstreamStatus}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(
      (await auditRows(plain.account.accountId)).map((r: { action: string }) => r.action),
      [],
    );
  });
});
