import assert from 'node:assert/strict';
import { recordPlatformSubmission } from '../../../src/forms/service';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { newAccount } from '../../helpers/accounts';
import { newProjectId } from '../../helpers/projects';
import { ALL_SCOPES, addSite } from '../connections/fixtures';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import { OPS, query, newTenant, type Tenant } from '../operations/fixtures';
import { backfillPath, ledgerCount, seedSubmissions, startFormsWorld, type FormsWorld } from './fixtures';

describe('POST /api/builder/site-platform/{projectId}/forms/backfill', () => {
  let world: FormsWorld;
  before(async () => {
    world = await startFormsWorld();
  });
  after(async () => {
    await world?.close();
  });
  afterEach(() => {
    world.clock.offsetMs = 0;
  });

  const backfill = (t: Tenant, body?: unknown, headers?: Record<string, string>, app = world.app) =>
    app.call('POST', backfillPath(t.projectId), { token: t.account.ownerToken, body, headers });

  it('forms_require_republish: before the site was published the platform lists no forms, answered 409 coded', async () => {
    const t = await newTenant(world);
    seedSubmissions(world, t.siteId, 3, { publish: false });
    const res = await backfill(t, {});
    assert.deepEqual([res.status, res.body.code], [409, 'forms_require_republish'], res.text);
    assert.equal(await ledgerCount(t.account.accountId), 0);
  });

  it('limit default 200: 200 of 250 imported as historical rows, next_offset continues; no trigger, no notification', async () => {
    const t = await newTenant(world);
    const { submissions } = seedSubmissions(world, t.siteId, 250);
    // One of them was delivered before (same key): the backfill counts it as already present.
    const delivered = submissions[10];
    await recordPlatformSubmission(harness().db, t.account.accountId, {
      connectionId: '00000000-0000-4000-8000-000000000000',
      siteId: t.siteId,
      eventId: delivered.id,
      payload: { id: delivered.id, name: 'Contact', data: delivered.formResponse, submittedAt: delivered.dateSubmitted, siteId: t.siteId },
      historical: false,
    });

    const res = await backfill(t, undefined);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      [res.body.fetched, res.body.imported, res.body.already_present, res.body.permanent, res.body.partial, res.body.next_offset],
      [200, 199, 1, 0, false, 200],
    );
    assert.deepEqual([res.body.site_id, res.body.platform_total, res.body.retry_after_seconds], [t.siteId, 250, null]);
    const listings = world.sim.requests().filter((r) => r.path.endsWith(`/sites/${t.siteId}/form_submissions`));
    assert.deepEqual(
      listings.map((r) => new URLSearchParams(r.query).get('limit')),
      ['100', '100'],
      'paged 100 at a time',
    );

    const rest = await backfill(t, { offset: res.body.next_offset });
    assert.deepEqual([rest.body.fetched, rest.body.imported, rest.body.next_offset], [50, 50, null], rest.text);

    const { db } = harness();
    const rows = await db('form_submissions').where({ account_id: t.account.accountId });
    assert.equal(rows.length, 250);
    assert.equal(rows.filter((r) => r.historical).length, 249);
    const row = rows.find((r) => r.raw_payload.submission_id === submissions[0].id)!;
    assert.deepEqual(
      [row.source, row.form_label, row.page_path, row.idempotency_key, row.email, row.raw_payload.site_id, row.raw_payload.event_id],
      [
        'platform',
        'Contact',
        '/',
        `platform:${t.account.accountId}:${submissions[0].id}`,
        submissions[0].formResponse.Email,
        t.siteId,
        null,
      ],
    );
    const triggers = await db('workflow_trigger_outbox').where({ account_id: t.account.accountId, trigger: 'form_submitted' });
    assert.equal(triggers.length, 1, 'only the delivered submission fired');
    assert.equal((await db('inbox_items').where({ account_id: t.account.accountId, kind: 'form_submission_received' })).length, 0);

    const again = await backfill(t, { limit: 1000 });
    assert.deepEqual([again.body.fetched, again.body.imported, again.body.already_present], [250, 0, 250], 'a rerun adds nothing');
  });

  it('limit cap 1000: 1000 is accepted; 1001, 0, 2.5, a string or an unknown field is 400 validation_failed and starts nothing', async () => {
    const t = await newTenant(world);
    seedSubmissions(world, t.siteId, 5);
    for (const body of [{ limit: 1001 }, { limit: 0 }, { limit: 2.5 }, { limit: '10' }, { offset: -1 }, { since: 'x' }]) {
      const res = await backfill(t, body);
      assert.deepEqual([res.status, res.body.code], [400, 'validation_failed'], `${JSON.stringify(body)}: ${res.text}`);
    }
    assert.equal(await ledgerCount(t.account.accountId), 0);
    const ok = await backfill(t, { limit: 1000 });
    assert.deepEqual([ok.status, ok.body.imported], [200, 5], ok.text);
  });

  it('form_id: only that form’s submissions, through the per-form listing', async () => {
    const t = await newTenant(world);
    seedSubmissions(world, t.siteId, 3, { formName: 'Contact' });
    const { form } = seedSubmissions(world, t.siteId, 2, { formName: 'Newsletter' });
    const res = await backfill(t, { form_id: form.id });
    assert.deepEqual([res.status, res.body.imported, res.body.form_id], [200, 2, form.id], res.text);
    const labels = await harness().db('form_submissions').where({ account_id: t.account.accountId }).pluck('form_label');
    assert.deepEqual(labels, ['Newsletter', 'Newsletter']);
    assert.ok(world.sim.requests().some((r) => r.path.endsWith(`/forms/${form.id}/submissions`)));
  });

  it('a platform error carries upstreamStatus and the same code as the same platform answer through the operation route', async () => {
    const t = await newTenant(world);
    seedSubmissions(world, t.siteId, 1);
    const res = await backfill(t, { form_id: 'nonexistent-form' });
    const viaOps = await world.app.call(
      'GET',
      `${OPS}${query({ action: 'form_submission_list', site_id: t.siteId, form_id: 'nonexistent-form' })}`,
      { token: t.account.agentKey },
    );
    assert.deepEqual([viaOps.status, viaOps.body.upstreamStatus], [404, 404], viaOps.text);
    assert.deepEqual(
      [res.status, res.body.code, res.body.upstreamStatus, res.body.platform_code],
      [viaOps.status, viaOps.body.code, viaOps.body.upstreamStatus, viaOps.body.platform_code],
      res.text,
    );
    assert.equal(await ledgerCount(t.account.accountId), 0);
  });

  it('429 rate_limited with retry_after_seconds when the FIRST page hits the rate limit; nothing imported', async () => {
    const mark = world.sim.requests().length;
    const t = await newTenant(world);
    seedSubmissions(world, t.siteId, 20);
    await spendBudget(world, t, mark, 0);
    const res = await backfill(t, {});
    assert.deepEqual([res.status, res.body.code], [429, 'rate_limited'], res.text);
    assert.ok(res.body.retry_after_seconds >= 1, res.text);
    assert.equal(res.headers.get('retry-after'), String(res.body.retry_after_seconds));
    assert.equal(await ledgerCount(t.account.accountId), 0);
  });

  it("the platform's own 429 on the first page (budget spent by another client of the token) is 429 rate_limited too", async () => {
    const { tenant: t, token } = await tenantWithToken(world);
    seedSubmissions(world, t.siteId, 5);
    // Another client of the same token spends the platform's window; this service's bucket does not know of it.
    for (let i = 0; i < 61; i++) {
      const res = await fetch(`${world.sim.baseUrl}/v2/sites/${t.siteId}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status === 429) break;
    }
    world.clock.offsetMs = -15_000;
    const mark = world.sim.requests().length;
    const res = await backfill(t, {});
    assert.deepEqual([res.status, res.body.code], [429, 'rate_limited'], res.text);
    assert.ok(res.body.retry_after_seconds > 60, `the platform's Retry-After: ${res.text}`);
    const refused = world.sim
      .requests()
      .slice(mark)
      .filter((r) => r.path.endsWith('/form_submissions'));
    assert.ok(refused.length >= 1 && refused.every((r) => r.status === 429), 'the platform refused the listing');
    assert.equal(await ledgerCount(t.account.accountId), 0);
  });

  it('partial: true with retry_after_seconds and next_offset when a LATER page hits the rate limit', async () => {
    const mark = world.sim.requests().length;
    const t = await newTenant(world);
    seedSubmissions(world, t.siteId, 1000);
    await spendBudget(world, t, mark, 3);
    const res = await backfill(t, { limit: 1000 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.partial, res.body.fetched, res.body.imported, res.body.next_offset], [true, 300, 300, 300], res.text);
    assert.ok(res.body.retry_after_seconds >= 1, res.text);
    assert.equal(await ledgerCount(t.account.accountId), 300);
  });

  it('runs as a job: past the wait bound 202 with the job (listed by GET /api/jobs); the same Idempotency-Key answers the same run', async () => {
    const t = await newTenant(world);
    seedSubmissions(world, t.siteId, 30);
    const noWait = await world.appWith({ SITE_PLATFORM_FORMS_BACKFILL_WAIT_SECONDS: 0 });
    const key = `forms-${Date.now()}`;
    const accepted = await backfill(t, { limit: 30 }, { 'idempotency-key': key }, noWait);
    assert.equal(accepted.status, 202, accepted.text);
    const jobId = `site-platform-forms-backfill:${t.account.accountId}:${key}`;
    assert.equal(accepted.body.id, jobId);
    assert.equal(accepted.headers.get('location'), `/api/jobs/${jobId}`);
    const done = await eventually(
      () => world.app.call('GET', `/api/jobs/${jobId}`, { token: t.account.ownerToken }),
      (r) => r.body?.status === 'completed',
      20_000,
      'the backfill job to complete',
    );
    assert.equal(done.body.kind, 'site-platform-forms-backfill');
    assert.equal(done.body.result.imported, 30);
    await eventually(
      () => world.app.call('GET', `/api/jobs?kind=site-platform-forms-backfill`, { token: t.account.ownerToken }),
      (r) => r.body?.data?.some((j: any) => j.id === jobId),
      20_000,
      'the job in GET /api/jobs',
    );
    const replay = await backfill(t, { limit: 30 }, { 'idempotency-key': key });
    assert.deepEqual([replay.status, replay.body.imported], [200, 30], 'the finished run’s result, not a new run');
    const reused = await backfill(t, { limit: 20 }, { 'idempotency-key': key });
    assert.deepEqual([reused.status, reused.body.code], [409, 'idempotency_key_reused'], reused.text);
  });

  it('another account’s project is 404 project_not_found; a project bound to no site is 409 project_site_not_bound', async () => {
    const t = await newTenant(world);
    const stranger = await newAccount();
    const res = await world.app.call('POST', backfillPath(t.projectId), { token: stranger.ownerToken, body: {} });
    assert.deepEqual([res.status, res.body.code], [404, 'project_not_found'], res.text);
    await harness().db('site_platform_project_bindings').where({ project_id: t.projectId }).update({ site_id: null });
    const unbound = await backfill(t, {});
    assert.deepEqual([unbound.status, unbound.body.code], [409, 'project_site_not_bound'], unbound.text);
  });
});

/** newTenant's setup (a site-token connect and a project bound to the site), also answering the pasted token. */
async function tenantWithToken(world: FormsWorld): Promise<{ tenant: Tenant; token: string }> {
  const account = await newAccount();
  const site = addSite(world, 'Forms');
  const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [site.id] });
  const res = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token } });
  if (res.status !== 201) throw new Error(`site token connect failed: ${res.status} ${res.text}`);
  const projectId = await newProjectId(account.accountId);
  await saveBinding(harness().db, account.accountId, projectId, { override_mode: 'inherit', connection_id: null, site_id: site.id });
  return { tenant: { account, siteId: site.id, collectionId: '', itemIds: [], pageId: '', projectId }, token };
}

/**
 * Spends a fresh tenant's platform budget (60 a minute) down to `left` requests: every simulator request since
 * `mark` (taken just before the tenant connected; the tests run one at a time) was made with the tenant's token. Then
 * moves the simulator's clock back, so the spent window stays spent with a Retry-After beyond the client's one-minute wait.
 */
async function spendBudget(world: FormsWorld, t: Tenant, mark: number, left: number): Promise<void> {
  const spent = () => world.sim.requests().length - mark;
  while (spent() < 60 - left) {
    const res = await world.app.call('GET', `${OPS}${query({ action: 'site_get', site_id: t.siteId })}`, { token: t.account.agentKey });
    if (res.status !== 200) throw new Error(`budget read failed: ${res.status} ${res.text}`);
  }
  assert.equal(spent(), 60 - left, 'the budget left');
  world.clock.offsetMs = -15_000;
}
