import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { defaultPipeline, upsertContactByEmail } from '../../../src/crm/service';
import { createDeal } from '../../../src/crm/dealService';
import { recordPlatformSubmission, type RecordOutcome } from '../../../src/forms/service';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { newProjectId } from '../../helpers/projects';

/** An account with a project bound to its own site, so the site's deliveries belong to the project. */
export async function boundProject(): Promise<{ accountId: string; projectId: string; siteId: string }> {
  const { accountId } = await newAccount();
  const projectId = await newProjectId(accountId);
  const siteId = `site_${randomBytes(4).toString('hex')}`;
  await bind(accountId, projectId, siteId);
  return { accountId, projectId, siteId };
}

export async function bind(accountId: string, projectId: string, siteId: string, mode = 'inherit', createdAt = new Date()) {
  await harness().db('site_platform_project_bindings').insert({
    account_id: accountId,
    project_id: projectId,
    override_mode: mode,
    site_id: siteId,
    created_at: createdAt,
  });
}

export interface Lead {
  email?: string;
  at?: Date;
  form?: string;
  fields?: Record<string, unknown>;
  historical?: boolean;
  projectId?: string;
}

/** A delivery (or, `historical`, a backfilled row) from the site; the ledger row's id. */
export async function submit(accountId: string, siteId: string, lead: Lead = {}): Promise<string> {
  const email = lead.email ?? `lead-${randomBytes(3).toString('hex')}@example.test`;
  const outcome: RecordOutcome = await recordPlatformSubmission(harness().db, accountId, {
    connectionId: randomUUID(),
    siteId,
    payload: {
      name: lead.form ?? 'Contact us',
      siteId,
      data: { Email: email, ...lead.fields },
      submittedAt: (lead.at ?? new Date(Date.now() - 3_600_000)).toISOString(),
      id: randomBytes(12).toString('hex'),
    },
    historical: lead.historical ?? false,
    projectId: lead.projectId,
  });
  if (outcome.kind !== 'recorded') throw new Error('not recorded');
  return outcome.id;
}

/** Deliveries carry no page today; a row is moved to a page the way a page-aware source would write it. */
export async function onPage(id: string, path: string) {
  await harness().db('form_submissions').where({ id }).update({ page_path: path });
}

export async function contactOf(accountId: string, email: string): Promise<string> {
  return (await upsertContactByEmail(harness().db, accountId, { email, source: 'form' })).contact.id;
}

export async function deal(
  accountId: string,
  contactId: string,
  amount: number,
  currency: string,
  opts: { won?: boolean; createdAt?: Date } = {},
) {
  const db = harness().db;
  const pipeline = await defaultPipeline(db, accountId);
  const stage = await db('crm_pipeline_stages')
    .where({ account_id: accountId, pipeline_id: pipeline.id, kind: opts.won ? 'won' : 'open' })
    .orderBy('position')
    .first();
  const created = await createDeal(db, accountId, { title: 'Deal', contactId, amount, currency, stageId: stage.id });
  if (opts.createdAt) await db('crm_deals').where({ id: created.id }).update({ created_at: opts.createdAt });
  return created.id;
}

export const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

const DAY_MS = 86_400_000;
/** Today's UTC midnight (epoch ms). */
export const todayUtc = () => Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());

/**
 * A published item (created through the API) linked to `projectId`, created `createdDaysAgo` UTC days ago (an hour
 * past that midnight; now when absent); a service-hosted project with a host serves it at `https://<host>/blog/<slug>`.
 */
export async function linkedItem(
  ownerToken: string,
  projectId: string,
  slug: string,
  createdDaysAgo?: number,
  keyword?: string,
): Promise<string> {
  const res = await call('POST', '/api/marketing/content', {
    token: ownerToken,
    body: { title: slug, slug, status: 'published', ...(keyword ? { target_keyword: keyword } : {}) },
  });
  assert.equal(res.status, 201, res.text);
  await harness()
    .db('content_items')
    .where({ id: res.body.id })
    .update({
      cms_link: JSON.stringify({ project_id: projectId, collection_id: 'blog', item_id: null }),
      ...(createdDaysAgo === undefined ? {} : { created_at: new Date(todayUtc() - createdDaysAgo * DAY_MS + 3_600_000) }),
    });
  return res.body.id;
}
