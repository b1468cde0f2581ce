/** What the case-study writer is given: one won deal and the proof gathered around it. */

export interface CaseStudyResult {
  id: string;
  metric: string;
  /** numeric(20,4) as stored, e.g. "12.5000"; the draft shows it as "12.5" (see numbers.ts). */
  before: string;
  after: string;
  unit: string | null;
}

export interface CaseStudySources {
  /** Read for context only: the draft states no deal amount and no date. */
  deal: { id: string; title: string; amount: number; currency: string; won_at: string | null };
  contact: { name: string | null; company: string | null };
  grid: { id: string; name: string; results: CaseStudyResult[] } | null;
  testimonial: { id: string; quote: string; attribution: string | null; consent: boolean } | null;
  avatar: { id: string; name: string } | null;
  /** The journey stage the draft is written for, as the account's journey map spells it (the Decision stage). */
  stage: string;
}

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

/** The prose of a draft; numbers, the quote and the source markers are added around it by markup.ts. */
export interface CaseStudyProse {
  title: string;
  excerpt: string;
  challenge: string;
  solution: string;
  outcome: string;
}
