import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { invalidReference } from '../../http/fieldErrors';
import { isUuid } from '../../http/ids';
import { findOwnProject } from '../../projects/service';
import { getContact, getDeal } from '../../crm/service';
import { findAvatar, findGrid } from '../grounding/service';
import { rowsOf } from '../grounding/gridStore';
import type { CaseStudySources } from '../../../workflows/caseStudy.contract';
import { findTestimonial, journeyWithDecision } from './store';

export interface CaseStudyRequest {
  dealId: string;
  gridId: string | null;
  testimonialId: string | null;
  avatarId: string | null;
  projectId: string | null;
}

/** The stage a case study is written for, when the account's journey maps have none of that name. */
export const DECISION_STAGE = 'Decision';

export const dealNotWon = (status: string) =>
  new ApiError(409, 'deal_not_won', `the deal is ${status}, not won; a case study is drafted from a won deal`, {
    details: { deal_status: status },
  });

const notOwned = (field: string, what: string) => invalidReference(field, what);

/** undefined for the service's not-found error `code`; anything else is thrown on. */
function ifMissing(err: unknown, code: string): undefined {
  if (err instanceof ApiError && err.code === code) return undefined;
  throw err;
}

/** The stage as the account's journey map spells it, and that map; `Decision` and no map when none has one. */
async function decisionStage(db: Knex, accountId: string): Promise<{ journeyId: string | null; stage: string }> {
  const journey = await journeyWithDecision(db, accountId);
  const stage = journey?.stages.find((s) => s.name.toLowerCase() === 'decision');
  return journey && stage ? { journeyId: journey.id, stage: stage.name } : { journeyId: null, stage: DECISION_STAGE };
}

/**
 * Everything a case-study draft is grounded in, read and checked: the deal must be the account's (400
 * `invalid_reference`, field deal_id) and won (409 `deal_not_won`); the grid, testimonial, avatar and project, when
 * sent, the account's (400 `invalid_reference` naming the field; a testimonial must belong to the grid when both are
 * sent, and names its grid when only it is sent). Without a testimonial the grid's first consented one is quoted.
 */
export async function gatherSources(
  db: Knex,
  accountId: string,
  req: CaseStudyRequest,
): Promise<{ sources: CaseStudySources; journeyId: string | null }> {
  const deal = await getDeal(db, accountId, req.dealId).catch((err) => ifMissing(err, 'deal_not_found'));
  if (!deal) throw notOwned('deal_id', 'CRM deal');
  if (deal.status !== 'won') throw dealNotWon(deal.status);

  const testimonialRow =
    req.testimonialId === null
      ? undefined
      : isUuid(req.testimonialId)
        ? await findTestimonial(db, accountId, req.testimonialId)
        : undefined;
  if (req.testimonialId !== null && !testimonialRow) throw notOwned('testimonial_id', 'before/after testimonial');
  const gridId = req.gridId ?? testimonialRow?.grid_id ?? null;
  const grid = gridId !== null && isUuid(gridId) ? await findGrid(db, accountId, gridId) : undefined;
  if (gridId !== null && !grid) throw notOwned('grid_id', 'before/after grid');
  if (testimonialRow && testimonialRow.grid_id !== gridId)
    throw new ApiError(400, 'invalid_reference', 'testimonial_id names a testimonial of another grid than grid_id', {
      details: { field: 'testimonial_id' },
      errors: [{ path: 'body.testimonial_id', message: 'must be a testimonial of the grid grid_id names' }],
    });
  if (req.avatarId !== null && !(isUuid(req.avatarId) && (await findAvatar(db, accountId, req.avatarId))))
    throw notOwned('avatar_id', 'customer avatar');
  if (req.projectId !== null && !(isUuid(req.projectId) && (await findOwnProject(db, accountId, req.projectId))))
    throw notOwned('project_id', 'website project');

  const [contact, rows, avatar, decision] = await Promise.all([
    // A contact deleted since the deal was read leaves the draft without a customer name.
    deal.contact_id ? getContact(db, accountId, deal.contact_id).catch((err) => ifMissing(err, 'contact_not_found')) : undefined,
    rowsOf(db, accountId, grid ? [grid.id] : []),
    req.avatarId ? findAvatar(db, accountId, req.avatarId) : undefined,
    decisionStage(db, accountId),
  ]);
  const testimonial = testimonialRow ?? rows.testimonials.find((t) => t.consent) ?? null;
  return {
    journeyId: decision.journeyId,
    sources: {
      deal: {
        id: deal.id,
        title: deal.title,
        amount: Number(deal.amount),
        currency: deal.currency,
        won_at: deal.won_at ? deal.won_at.toISOString() : null,
      },
      contact: { name: contact?.name ?? null, company: contact?.company ?? null },
      grid: grid
        ? {
            id: grid.id,
            name: grid.name,
            results: rows.results.map((r) => ({ id: r.id, metric: r.metric, before: r.before_value, after: r.after_value, unit: r.unit })),
          }
        : null,
      testimonial: testimonial
        ? { id: testimonial.id, quote: testimonial.quote, attribution: testimonial.attribution, consent: testimonial.consent }
        : null,
      avatar: avatar ? { id: avatar.id, name: avatar.name } : null,
      stage: decision.stage,
    },
  };
}
