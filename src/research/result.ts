import { z } from 'zod';
import { artifactSchema } from '../knowledge/schemas';
import { MAX_PAGE_CHARACTERS, type ResearchResult } from '../../workflows/research.contract';
import { MAX_STAMP_CHARACTERS, MAX_STAMP_ITEMS } from './stamp';

// The research result as the API returns it (201 of the research routes, `result` of the job), for OpenAPI.
// workflows/research.contract.ts holds the same shape as TypeScript types; the check at the end keeps them equal.

const extraction = z
  .enum(['model', 'fallback'])
  .describe(
    '`model`: claims extracted by the configured chat model; `fallback`: no model key is configured, claims are sentences that carry facts (a number, a year, an amount …) and their confidence_score is 0.',
  );

export const ResearchClaimSchema = z
  .object({
    claim: z.string().describe('The fact, in a sentence.'),
    quote: z
      .string()
      .describe(
        'Copied verbatim from the page or passage it came from (whitespace, quote marks and dashes normalised). A claim whose quote is not found there is dropped and counted in `warnings`.',
      ),
    kind: z
      .enum(['web', 'kb'])
      .describe(
        "`web`: from a page of the search results (`source_url` names it); `kb`: from a passage of one of the account's knowledge bases (`source_url` null).",
      ),
    source_url: z.string().nullable().describe('The page of a `web` claim; always null for a `kb` claim.'),
    extraction,
    confidence_score: z.number().describe('0..1 as the model rated it; 0 for fallback extraction.'),
  })
  .meta({ id: 'ResearchClaim' });

export const ResearchSourceSchema = z
  .object({
    url: z.string().describe('A search result URL that was read (pages that could not be read are `gaps`).'),
    title: z.string().nullable().describe('The page title, else the search result title.'),
    indexed: z
      .boolean()
      .describe(
        "The page text is in the account's research knowledge base (also true when it was already). False for a page that gave no claim (only used pages are indexed) or whose indexing failed (a warning says why); the run goes on either way.",
      ),
    already_indexed: z.boolean().describe('The research knowledge base already held this URL: it was not indexed again.'),
    claims: z.number().int().describe('Claims taken from this page.'),
  })
  .meta({ id: 'ResearchSource' });

export const ResearchSerpSchema = z
  .object({
    query: z.string().describe('The target keyword, or the topic (title) when there is none.'),
    results: z.array(z.object({ position: z.number().int(), title: z.string(), url: z.string(), description: z.string() })),
  })
  .meta({ id: 'ResearchSerp' });

export const ResearchResultSchema = z
  .object({
    run_id: z
      .string()
      .describe(
        'The job id of the run (`research:<account>:…`); `GET /api/jobs/{run_id}` reads it again. The same Idempotency-Key gives the same run_id.',
      ),
    content_id: z.string().nullable().describe('The item researched; null for topic research.'),
    topic: z.string().describe('The item title (read when the run started) or the topic sent.'),
    keyword: z.string().nullable().describe("The item's target_keyword (settings.target_keyword for older items) or the keyword sent."),
    knowledge_base_id: z.string().describe("The account's research knowledge base (created on first use)."),
    artifact_id: z.string().describe('The `content_research` artifact written by the run: one per item (or per topic and keyword).'),
    artifact_created: z
      .boolean()
      .describe(
        'False when a re-run refreshed the existing artifact. A re-run replaces what it retrieved again and keeps from the stored research what it could not: when its web search did not run (`serp` null), the stored web claims and sources; when the knowledge bases could not be searched, the stored kb claims (a warning says which, and from which run). So a capped search never leaves the artifact or settings.research poorer.',
      ),
    extraction,
    claims: z
      .array(ResearchClaimSchema)
      .describe(
        'Knowledge-base claims first, then web claims in result order. A kb claim whose quote a web claim also carries is listed once, as the web claim. Knowledge-base claims never come from `content_research` artifacts (they repeat earlier runs); the best passages are taken from everything else. Parts this run could not retrieve are kept from the stored research (see artifact_created).',
      ),
    sources: z
      .array(ResearchSourceSchema)
      .describe(
        'Pages read by this run; when the web search did not run on a re-run, the sources of the stored research (their flags as that run left them).',
      ),
    serp: ResearchSerpSchema.nullable().describe(
      "The web search; null when the account's monthly search cap (SEARCH_MONTHLY_CAP) is reached, no search key is configured, or the search failed — `warnings` says which, and the run goes on.",
    ),
    warnings: z
      .array(z.string())
      .describe(
        'What went wrong without stopping the run: dropped claims (quote not found), search cap or failure, pages not indexed, and the parts kept from the stored research.',
      ),
    gaps: z
      .array(z.string())
      .describe(
        `Pages that could not be used: over ${MAX_PAGE_CHARACTERS.toLocaleString('en')} characters of readable text (skipped), failed to load, or out of time.`,
      ),
  })
  .meta({
    id: 'ResearchRun',
    description: [
      'The result of a research run. Order: every knowledge base of the account, the web search, up to max_sources pages',
      '(fetched concurrently), each used page indexed into the research knowledge base (a known URL never again), the artifact',
      `written, and for item research \`settings.research\` stamped last: a summary of at most ${MAX_STAMP_CHARACTERS.toLocaleString('en')} characters`,
      `with sources and gaps trimmed to ${MAX_STAMP_ITEMS} (claims as many as fit; \`truncated\` says when something was left out).`,
    ].join(' '),
  });

export const StoredResearchSchema = z
  .object({
    research: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe(
        `settings.research of the item: run_id, artifact_id, knowledge_base_id, researched_at, topic, keyword, extraction, claim_count, claims, source_count, sources (≤ ${MAX_STAMP_ITEMS}), gap_count, gaps (≤ ${MAX_STAMP_ITEMS}), serp_query, warning_count, truncated; at most ${MAX_STAMP_CHARACTERS.toLocaleString('en')} characters. Null before the first run.`,
      ),
    artifact: artifactSchema
      .nullable()
      .describe(
        'The artifact settings.research points at (`content_research`, every claim, source, gap and the serp); null before the first run.',
      ),
  })
  .meta({ id: 'StoredResearch' });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Compile-time only: the schema and the workflow's result type describe the same shape.
true satisfies Same<z.infer<typeof ResearchResultSchema>, ResearchResult>;
