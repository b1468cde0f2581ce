import assert from 'node:assert/strict';
import { harness } from '../helpers/harness';
import { newAccount, type TestAccount } from '../helpers/accounts';
import * as knowledge from '../../src/knowledge/service';
import { newKnowledgeBase, upsert } from './fixtures';

const index = (accountId: string, kbId: string, title: string, text: string, sourceUrl: string | null = null) =>
  knowledge.indexDocument(harness().db, accountId, kbId, { sourceUrl, title, text });

describe('Knowledge search (searchPassages)', () => {
  let acct: TestAccount;
  let other: TestAccount;
  let kbId: string;
  let secondKbId: string;

  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
    kbId = (await newKnowledgeBase(acct.accountId)).id;
    secondKbId = (await newKnowledgeBase(acct.accountId)).id;
    await index(
      acct.accountId,
      kbId,
      'Invoicing guide',
      'Invoice automation saves small clinics hours every week. Automated invoice reminders cut late payments, and invoice automation pays for itself.',
      'https://example.test/invoicing',
    );
    await index(
      acct.accountId,
      kbId,
      'Overview',
      'An invoice is a document. Much later, after a long list of unrelated remarks about offices, teams, parking and lunch, we note that automation exists.',
    );
    await index(
      acct.accountId,
      kbId,
      'Office',
      'Our office has a garden with tomatoes and a quiet reading corner for the team. Payroll runs on the last Friday of the month.',
    );
    await index(
      acct.accountId,
      kbId,
      'Mentions',
      'We once mentioned an invoice in passing, among many other unrelated topics like travel, weather and lunch.',
    );
    await index(
      acct.accountId,
      secondKbId,
      'Second base',
      'Invoice automation for dentists: a second knowledge base mentions invoice automation too.',
    );
    await index(other.accountId, (await newKnowledgeBase(other.accountId)).id, 'Foreign', 'Invoice automation secrets of another account.');
  });

  it('hits are ranked: the passage that matches the query more closely comes first, each with its document and position', async () => {
    const hits = await knowledge.searchPassages(harness().db, acct.accountId, 'invoice automation', { kbIds: [kbId] });
    assert.ok(hits.length >= 1);
    assert.match(hits[0].text, /^Invoice automation saves small clinics/);
    assert.equal(hits[0].source_url, 'https://example.test/invoicing');
    assert.equal(hits[0].title, 'Invoicing guide');
    assert.equal(hits[0].kb_id, kbId);
    assert.equal(typeof hits[0].passage_id, 'string');
    assert.equal(typeof hits[0].position, 'number');
    assert.deepEqual(hits[0].metadata, {});
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score, 'scores never increase down the list');
    assert.ok(
      hits.some((h) => h.title === 'Overview'),
      'a looser match is a hit too',
    );
    assert.ok(hits[0].score > hits.find((h) => h.title === 'Overview')!.score);
    assert.ok(
      hits.every((h) => !/garden|mentioned an invoice/.test(h.text)),
      'passages without every word are not hits',
    );
  });

  it("search covers every knowledge base of the account unless kbIds narrows it, and never another account's", async () => {
    const all = await knowledge.searchPassages(harness().db, acct.accountId, 'invoice automation');
    assert.deepEqual(new Set(all.map((h) => h.kb_id)), new Set([kbId, secondKbId]));
    assert.ok(all.every((h) => !/another account/.test(h.text)));
    const narrowed = await knowledge.searchPassages(harness().db, acct.accountId, 'invoice automation', { kbIds: [secondKbId] });
    assert.ok(narrowed.length > 0 && narrowed.every((h) => h.kb_id === secondKbId));
    assert.deepEqual(await knowledge.searchPassages(harness().db, acct.accountId, 'invoice', { kbIds: [] }), []);
    assert.deepEqual(await knowledge.searchPassages(harness().db, acct.accountId, 'invoice', { kbIds: ['not-a-uuid'] }), []);
  });

  it('when no passage holds every word, passages holding any of them are returned (a long keyword still finds partial matches)', async () => {
    const hits = await knowledge.searchPassages(harness().db, acct.accountId, 'invoice automation for veterinary practices in Norway', {
      kbIds: [kbId],
    });
    assert.ok(hits.length >= 2, `got ${hits.length}`);
    assert.match(hits[0].text, /^Invoice automation saves/, 'the passage sharing the most words ranks first');
    assert.ok(hits.some((h) => /mentioned an invoice/.test(h.text)));
  });

  it('a query with no matching word, a blank query or only stop words finds nothing', async () => {
    const db = harness().db;
    assert.deepEqual(await knowledge.searchPassages(db, acct.accountId, 'zeppelin quasar'), []);
    assert.deepEqual(await knowledge.searchPassages(db, acct.accountId, '   '), []);
    assert.deepEqual(await knowledge.searchPassages(db, acct.accountId, 'the and of'), []);
    assert.deepEqual(await knowledge.searchPassages(db, acct.accountId, '"unclosed -quote or & | ! :*'), []);
  });

  it('limit caps the hits', async () => {
    const hits = await knowledge.searchPassages(harness().db, acct.accountId, 'invoice', { limit: 1 });
    assert.equal(hits.length, 1);
  });

  it("hits from an artifact's text carry metadata.artifact_id and metadata.artifact_type", async () => {
    const { artifact } = await upsert(acct.accountId, kbId, {
      artifactType: 'serp_brief',
      contentJson: { title: 'Brief on zeolite filters', summary: 'Zeolite filters remove ammonia from aquarium water.' },
    });
    const hits = await knowledge.searchPassages(harness().db, acct.accountId, 'zeolite ammonia');
    assert.equal(hits.length, 1);
    assert.deepEqual(hits[0].metadata, { artifact_id: artifact.id, artifact_type: 'serp_brief' });
    assert.equal(hits[0].title, 'Brief on zeolite filters');
    assert.equal(hits[0].source_url, null);
  });
});
