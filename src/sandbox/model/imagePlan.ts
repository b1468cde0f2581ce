import { PLAN_REQUEST_END, PLAN_REQUEST_START, type PlanAnswer, type PlanRequest } from '../../marketing/images/modelPlan';

/** A section with fewer words is one the simulated model finds not worth a picture. */
const MIN_WORDS = 40;
/** Headings that frame an article rather than inform; the simulated model illustrates none of them. */
const FRAMING = /^(introduction|conclusion|summary|faq|frequently asked questions|final thoughts|key takeaways|references|sources)\b/i;

/** The image-plan request in a user message written by src/marketing/images/modelPlan.ts; undefined for any other prompt. */
export function readPlanRequest(content: string): PlanRequest | undefined {
  const start = content.indexOf(`${PLAN_REQUEST_START}\n`);
  const end = content.lastIndexOf(`\n${PLAN_REQUEST_END}`);
  if (start < 0 || end < start) return undefined;
  try {
    const request = JSON.parse(content.slice(start + PLAN_REQUEST_START.length + 1, end)) as PlanRequest;
    return Array.isArray(request?.sections) ? request : undefined;
  } catch {
    return undefined;
  }
}

/** What the simulated model plans: the hero when allowed, and every H2 without an image, not a framing one, with 40 words or more. */
export function simulatedPlan(request: PlanRequest): PlanAnswer {
  const hero = request.hero_allowed
    ? { prompt: `A wide photograph that sums up "${request.title}", natural light, uncluttered background.`, alt: request.title }
    : null;
  const sections = request.sections
    .filter((s) => !s.has_image && s.words >= MIN_WORDS && !FRAMING.test(s.heading.trim()))
    .slice(0, Math.max(0, request.max_sections))
    .map((s) => ({
      index: s.index,
      prompt: `A clear, realistic scene showing ${s.heading.toLowerCase()}, in the context of "${request.title}".`,
      alt: s.heading.slice(0, 125),
    }));
  return { hero, sections };
}
