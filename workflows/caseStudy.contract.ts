import { defineWorkflow } from './defineWorkflow';

// The `caseStudy` workflow's contract and shapes, shared by the workflow, its activities and the case-study area. No I/O.

/** The spec's runtime bound of a case-study draft. */
export const CASE_STUDY_BUDGET_MS = 180_000;

export interface CaseStudyInput {
  accountId: string;
  dealId: string;
  gridId: string | null;
  testimonialId: string | null;
  avatarId: string | null;
  projectId: string | null;
  requestId: string;
}

/** A measurable result of the before/after grid: where every number of the draft comes from. */
export interface CaseStudyGridResult {
  id: string;
  metric: string;
  /** numeric(20,4) as stored, e.g. "12.5000"; the draft shows it as "12.5" (src/marketing/caseStudy/numbers.ts). */
  before: string;
  after: string;
  unit: string | null;
}

/** What the case-study writer is given: one won deal and the proof gathered around it. */
export interface CaseStudySources {
  /** Read for context only: the draft states no deal amount and no date. */
  deal: { id: string; title: string; amount: number; currency: string; won_at: string | null };
  contact: { name: string | null; company: string | null };
  grid: { id: string; name: string; results: CaseStudyGridResult[] } | null;
  testimonial: { id: string; quote: string; attribution: string | null; consent: boolean } | null;
  avatar: { id: string; name: string } | null;
  /** The journey stage the draft is written for, as the account's journey map spells it (the Decision stage). */
  stage: string;
}

/** The written draft the save step stores as a content item. */
export interface CaseStudyDraft {
  title: string;
  excerpt: string;
  /** HTML. */
  body: string;
  writer: 'model' | 'template';
  warnings: string[];
  /** What the draft cites: the grid and its results shown, and the testimonial only when it is quoted. */
  sources_used: { grid_id: string | null; result_ids: string[]; testimonial_id: string | null };
}

/** The first step's answer: what the draft is grounded in, read again inside the run. */
export type GatheredSources =
  { status: 'ready'; sources: CaseStudySources; journeyId: string | null } | { status: 'refused'; code: string; message: string };

export interface SaveRequest {
  accountId: string;
  input: CaseStudyInput;
  sources: CaseStudySources;
  draft: CaseStudyDraft;
  /** The journey map whose Decision stage the item is at (null: no map has one; the stage is then free text). */
  journeyId: string | null;
  /** The run (`case-study:<account>:<deal>:<key>`): the item records it, so a retried save finds the item it wrote. */
  workflowId: string;
}

/**
 * The run's result: the drafted content item as the save step answers it, which is the job's `result` (the content
 * routes' item, settings.case_study naming its sources). The run only hands it on; its starters need its id.
 */
export interface CaseStudyResult {
  id: string;
}

/** One case-study draft: `case-study:<account>:<deal>:<Idempotency-Key>`. */
export const caseStudyContract = defineWorkflow<[CaseStudyInput], CaseStudyResult>('caseStudy', 'case-study');
