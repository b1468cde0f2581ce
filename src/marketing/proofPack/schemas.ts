import { z } from 'zod';
import { optionalText, requiredText } from '../../http/fields';
import { refId } from '../../http/ids';
import { MAX_ENTRY_CHARS } from './clip';
import { PROOF_KINDS } from './types';

export const DEFAULT_PACK_LIMIT = 25;
export const MAX_PACK_LIMIT = 100;

/** An empty query value (`?kinds=`) is read as absent. */
const blankAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const kindList = z.array(z.enum(PROOF_KINDS, { error: `each kind must be one of ${PROOF_KINDS.join(', ')}` }));

const KINDS_DOC = `Only these kinds, comma-separated: ${PROOF_KINDS.join(', ')} (default all).`;
const STAGE_DOC =
  "Only proof for this journey stage (grids of the account's items at that stage; activities whose metadata.journey_stage is another stage are left out). Up to 255 characters.";
const AVATAR_DOC =
  "Only proof for this customer avatar (grids of the account's items for it; activities whose metadata.avatar_id is another avatar are left out). 400 `invalid_reference` when not an avatar of your account.";
const Q_DOC =
  "Words to search the account's knowledge bases with (up to 500 characters); default the item's target keyword, else its title. Without q and content_id no knowledge base is searched.";
const LIMIT_DOC = `Entries at most, 1..${MAX_PACK_LIMIT} (default ${DEFAULT_PACK_LIMIT}); taken one kind at a time so every kind with proof shows.`;

export const packQuery = z.strictObject({
  content_id: blankAsAbsent(z.string().max(100, { error: 'must be at most 100 characters' })).describe(
    "A content item of your account: its grid, avatar, journey stage and keyword (or title) narrow the pack; the filters below win over the item's values. An unknown, malformed or other account's id is 404 `content_not_found`.",
  ),
  avatar_id: blankAsAbsent(refId()).describe(AVATAR_DOC),
  journey_stage: blankAsAbsent(requiredText(255)).describe(STAGE_DOC),
  kinds: blankAsAbsent(
    z
      .string()
      .max(200, { error: 'must be at most 200 characters' })
      .transform((v) => v.split(',').map((k) => k.trim().toLowerCase()))
      .pipe(kindList),
  ).describe(KINDS_DOC),
  q: blankAsAbsent(requiredText(500)).describe(Q_DOC),
  limit: blankAsAbsent(z.string().regex(/^\d{1,4}$/, { error: 'must be a whole number' }))
    .transform((v) => (v === undefined ? DEFAULT_PACK_LIMIT : Number(v)))
    .pipe(
      z
        .number()
        .min(1, { error: 'must be at least 1' })
        .max(MAX_PACK_LIMIT, { error: `must be at most ${MAX_PACK_LIMIT}` }),
    )
    .describe(LIMIT_DOC),
});

export const storeBody = z.strictObject({
  avatar_id: refId().nullable().optional().describe(AVATAR_DOC),
  journey_stage: optionalText(255).optional().describe(STAGE_DOC),
  kinds: kindList
    .min(1, { error: 'must name at least one kind' })
    .max(PROOF_KINDS.length)
    .optional()
    .describe(KINDS_DOC.replace('comma-separated', 'an array')),
  q: optionalText(500).optional().describe(Q_DOC),
  limit: z
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(MAX_PACK_LIMIT, { error: `must be at most ${MAX_PACK_LIMIT}` })
    .optional()
    .describe(LIMIT_DOC),
});

export const ProofEntrySchema = z
  .object({
    text: z.string().describe(`At most ${MAX_ENTRY_CHARS} characters: verbatim when consent is true, a name-free paraphrase when false.`),
    consent: z.boolean(),
    citation: z.string().describe('The source marker `[^source-id]` to put after the text; accepted by the pre-publish check.'),
    citation_definition: z.string().describe('`[^source-id]: …` — place it as its own block (a `<p>`) so the citation resolves.'),
    kind: z.enum(PROOF_KINDS),
    attribution: z.string().nullable().describe('Who said it (consent true); always null when consent is false.'),
    source: z.object({
      type: z.enum(['before_after_testimonial', 'before_after_result', 'crm_activity', 'kb_passage']),
      id: z.string(),
    }),
  })
  .meta({ id: 'ProofEntry' });

export const ProofPackSchema = z
  .object({
    data: z.array(ProofEntrySchema),
    sources: z.array(
      z.object({
        kind: z.enum(['testimonials', 'results', 'crm_activities', 'knowledge_bases']),
        ok: z.boolean().describe('False when the source could not be read in time; a line in notes says so.'),
        count: z.number().int().describe('Rows read from it (before the limit).'),
      }),
    ),
    notes: z.array(z.string()),
  })
  .meta({ id: 'ProofPack' });

export const StoredPackSchema = z
  .object({
    artifact_id: z.string(),
    created: z.boolean().describe('False when the item already had a proof pack artifact, now refreshed.'),
    pack: ProofPackSchema,
  })
  .meta({ id: 'StoredProofPack' });
