import { CASE_STUDY_REQUEST_END, CASE_STUDY_REQUEST_START, type CaseStudyRequest } from '../../marketing/caseStudy/modelDraft';
import type { CaseStudyProse } from '../../marketing/caseStudy/prose';

/** The case-study request in a user message written by src/marketing/caseStudy/modelDraft.ts; undefined for any other prompt. */
export function readCaseStudyRequest(content: string): CaseStudyRequest | undefined {
  const start = content.indexOf(`${CASE_STUDY_REQUEST_START}\n`);
  const end = content.lastIndexOf(`\n${CASE_STUDY_REQUEST_END}`);
  if (start < 0 || end < start) return undefined;
  try {
    const request = JSON.parse(content.slice(start + CASE_STUDY_REQUEST_START.length + 1, end)) as CaseStudyRequest;
    return Array.isArray(request?.metrics) ? request : undefined;
  } catch {
    return undefined;
  }
}

/** What the simulated model writes: plausible prose from the names and directions given, with no digit of its own. */
export function simulatedCaseStudy(request: CaseStudyRequest): CaseStudyProse {
  const who = request.customer ?? 'our customer';
  const metrics = request.metrics.map((m) => `${m.metric.toLowerCase()} ${m.change}`);
  const profile = request.avatar ? ` Like many teams we call “${request.avatar}”, they were stretched thin.` : '';
  return {
    title: `${who}: a customer story`,
    excerpt: `How ${who} changed the way they work, and what it changed for them.`,
    challenge: `Before working with us, ${who} spent too much time on work that did not move the business forward.${profile}`,
    solution: `${who} adopted our approach step by step, starting where the pain was greatest and widening it as the team grew confident.`,
    outcome:
      metrics.length > 0
        ? `The change showed in the numbers they track: ${metrics.join(', ')}.`
        : `The team reports that their work runs more smoothly than before.`,
  };
}
