import assert from 'node:assert/strict';
import {
  createKnowledgeBase,
  ensureResearchKnowledgeBase,
  indexDocument,
  searchPassages,
  upsertArtifact,
} from '../../src/knowledge/service';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { suffix } from './researchKit';

describe('knowledge search leaving out artifact types', () => {
  it('the top passages are taken from the eligible ones: excluded artifacts never take their places', async () => {
    const { db } = harness();
    const account = await newAccount('Excluded Artifacts Co');
    const keyword = `flue gas analyser ${suffix()}`;
    const kb = await createKnowledgeBase(db, account.accountId, { name: 'Notes' });
    await indexDocument(db, account.accountId, kb.id, {
      sourceUrl: null,
      title: 'Notes',
      text: `In 2022 our ${keyword} readings fell 9%.`,
    });
    const research = await ensureResearchKnowledgeBase(db, account.accountId);
    // Artifacts dense with the keyword: they outrank the note.
    for (let i = 0; i < 3; i++) {
      const text = Array.from({ length: 6 }, () => `${keyword} ${keyword} ${keyword}.`).join(' ');
      await upsertArtifact(db, account.accountId, research.id, {
        artifactType: 'content_research',
        key: `k${i}`,
        contentJson: { topic: keyword, claims: [text] },
      });
    }
    await upsertArtifact(db, account.accountId, research.id, {
      artifactType: 'serp_brief',
      key: 'brief',
      contentJson: { topic: keyword, note: `${keyword} brief.` },
    });

    const all = await searchPassages(db, account.accountId, keyword, { limit: 1 });
    assert.equal(all[0].metadata.artifact_type, 'content_research', 'without the exclusion an artifact ranks first');

    const hits = await searchPassages(db, account.accountId, keyword, { limit: 2, excludeArtifactTypes: ['content_research'] });
    assert.equal(hits.length, 2);
    assert.ok(hits.every((h) => h.metadata.artifact_type !== 'content_research'));
    assert.ok(
      hits.some((h) => h.kb_id === kb.id),
      'the note is found',
    );
    assert.ok(
      hits.some((h) => h.metadata.artifact_type === 'serp_brief'),
      'other artifact types stay searchable',
    );
  });
});
