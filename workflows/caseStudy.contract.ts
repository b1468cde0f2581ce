import type { ContentItem } from '../src/marketing/content/representation';
import type { CaseStudyDraft, CaseStudySources } from '../src/marketing/caseStudy/sources';
import { defineWorkflow } from './defineWorkflow';

// The `caseStudy` workflow's contract and shapes, shared by the workflow, its activities and the routes. No I/O.

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

/** The run's result: the drafted content item as the content routes answer it (settings.case_study names its sources). */
export type CaseStudyResult = ContentItem;

/** One case-study draft: `case-study:<account>:<deal>:<Idempotency-Key>`. */
export const caseStudyContract = defineWorkflow<[CaseStudyInput], CaseStudyResult>('caseStudy', 'case-study');
