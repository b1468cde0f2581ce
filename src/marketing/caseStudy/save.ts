import type { Knex } from '../../db/knex';
import { ensureResearchKnowledgeBase, upsertArtifact } from '../../knowledge/service';
import type { SaveRequest } from '../../../workflows/caseStudy.contract';
import { createServiceDraft, getContent, type ContentItem } from '../content/service';
import { caseStudySlug } from './slug';
import { itemIdOfRun } from './store';

/** The item a run wrote, found by the run id it records (a retried save answers it instead of writing another). */
async function itemOfRun(db: Knex, accountId: string, workflowId: string): Promise<ContentItem | undefined> {
  const id = await itemIdOfRun(db, accountId, workflowId);
  return id ? getContent(db, accountId, id) : undefined;
}

/**
 * The run's last step: the draft as a content item of type `case_study`, status `draft`, at the Decision stage, with
 * a slug of its own (slug.ts), the deal, grid, testimonial and avatar it is grounded in (version 1 by the run), and the
 * `case_study` knowledge artifact of the deal recording the sources used (keyed by the deal: a re-run refreshes it,
 * never duplicates it).
 */
export async function saveCaseStudy(db: Knex, req: SaveRequest): Promise<ContentItem> {
  const { accountId, sources, draft, input } = req;
  const item =
    (await itemOfRun(db, accountId, req.workflowId)) ??
    (await db.transaction(async (trx) =>
      createServiceDraft(
        trx,
        accountId,
        {
          title: draft.title,
          slug: await caseStudySlug(trx, accountId, draft.title),
          excerpt: draft.excerpt,
          body: draft.body,
          content_type: 'case_study',
          status: 'draft',
          journey_id: req.journeyId,
          journey_stage: sources.stage,
          avatar_id: sources.avatar?.id ?? null,
          before_after_grid_id: sources.grid?.id ?? null,
          settings: {
            case_study: {
              run_id: req.workflowId,
              deal_id: sources.deal.id,
              grid_id: draft.sources_used.grid_id,
              result_ids: draft.sources_used.result_ids,
              testimonial_id: draft.sources_used.testimonial_id,
              project_id: input.projectId,
              writer: draft.writer,
              warnings: draft.warnings,
            },
          },
        },
        { type: 'system', id: `workflow:${req.workflowId}` },
      ),
    ));
  const kb = await ensureResearchKnowledgeBase(db, accountId);
  await upsertArtifact(db, accountId, kb.id, {
    artifactType: 'case_study',
    key: `deal:${sources.deal.id}`,
    contentId: item.id,
    contentJson: {
      title: item.title,
      content_id: item.id,
      deal: { id: sources.deal.id, title: sources.deal.title },
      customer: sources.contact,
      grid: sources.grid ? { id: sources.grid.id, name: sources.grid.name, results: sources.grid.results } : null,
      testimonial: sources.testimonial,
      quoted: draft.sources_used.testimonial_id !== null,
      writer: draft.writer,
      run_id: req.workflowId,
    },
  });
  return item;
}
