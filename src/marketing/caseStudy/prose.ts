/** The prose of a draft; numbers, the quote and the source markers are added around it by markup.ts. */
export interface CaseStudyProse {
  title: string;
  excerpt: string;
  challenge: string;
  solution: string;
  outcome: string;
}
