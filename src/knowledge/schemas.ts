import { z } from 'zod';
import { optionalText, requiredText } from '../http/fields';
import { isUuid } from '../http/ids';
import { lenientCount, lenientPageQuery, listEnvelopeSchema } from '../http/pagination';
import { ARTIFACT_TYPE_PATTERN } from './artifacts';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from './service';

export const DEFAULT_ARTIFACT_LIMIT = 20;
export const MAX_ARTIFACT_LIMIT = 100;
export const MAX_DOCUMENT_CHARS = 200_000;
export const MAX_CONTENT_JSON_BYTES = 256 * 1024;

/** An empty query value (`?kb_id=`) is read as no filter. */
const blankAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const artifactTypeRule = 'lowercase letters, digits and underscores, starting with a letter, at most 64 characters';

export const artifactTypeFilter = blankAsAbsent(z.string().regex(ARTIFACT_TYPE_PATTERN, { error: `must be ${artifactTypeRule}` })).describe(
  'Only artifacts of this type, e.g. `content_research`, `serp_brief`, `positioning`, `proof_pack`, `case_study`, `data_study`, or a type a writer stored.',
);

const uuidFilter = (what: string) =>
  blankAsAbsent(z.guid({ error: 'must be a uuid' })).describe(`Only artifacts whose ${what} is exactly this uuid; a non-uuid is 400.`);

export const isVerifiedFilter = blankAsAbsent(z.enum(['true', 'false'], { error: 'must be true or false' }))
  .transform((v) => (v === undefined ? undefined : v === 'true'))
  .describe('`true` or `false`: only verified, or only unverified, artifacts.');

const artifactFilters = {
  artifact_type: artifactTypeFilter,
  content_id: uuidFilter('content_id'),
  is_verified: isVerifiedFilter,
  ...lenientPageQuery({ defaultLimit: DEFAULT_ARTIFACT_LIMIT, maxLimit: MAX_ARTIFACT_LIMIT }),
};

/** Filters of an artifact list scoped by its path (one knowledge base, or the research one). */
export const scopedArtifactQuery = z.strictObject(artifactFilters);

/** Filters of the account-wide artifact list. */
export const artifactQuery = z.strictObject({ ...artifactFilters, kb_id: uuidFilter('knowledge base (kb_id)') });

export const artifactIdParams = z.strictObject({
  artifactId: z
    .guid({ error: 'must be a uuid' })
    .describe("Artifact id (uuid). A malformed id is 400; an unknown one, or one whose knowledge base is another account's, is 404."),
});

export const kbIdParams = z.strictObject({
  kbId: z
    .string()
    .describe('Knowledge base id (uuid). A malformed or unknown id, or one of another account, answers 404 `knowledge_base_not_found`.'),
});

export const kbListQuery = z.strictObject(lenientPageQuery());

export const createKnowledgeBaseBody = z.strictObject({
  name: requiredText(100).describe("1..100 characters; unique in the account ignoring case (the research knowledge base's name included)."),
  description: optionalText(1000).optional().describe('Up to 1000 characters; "" or null is none.'),
});

export const documentBody = z.strictObject({
  title: requiredText(500).describe('1..500 characters.'),
  text: z
    .string()
    .max(MAX_DOCUMENT_CHARS, { error: `must be at most ${MAX_DOCUMENT_CHARS} characters` })
    .refine((t) => t.trim().length > 0, { error: 'must not be empty' })
    .describe(
      `Plain text, 1..${MAX_DOCUMENT_CHARS} characters. Paragraphs are separated by blank lines; it is split into passages of about 300 to 1,200 characters.`,
    ),
  source_url: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .max(2048, { error: 'must be at most 2048 characters' })
    .nullable()
    .optional()
    .describe(
      'Where the text comes from (http or https, at most 2048 characters). A URL the knowledge base already holds is not indexed again. Absent or null: always a new document.',
    ),
});

const contentJsonBytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');

export const artifactBody = z
  .strictObject({
    artifact_type: z
      .string()
      .regex(ARTIFACT_TYPE_PATTERN, { error: `must be ${artifactTypeRule}` })
      .describe(`The artifact's type: ${artifactTypeRule} (\`content_research\`, \`serp_brief\`, … or your own).`),
    key: requiredText(200)
      .nullable()
      .optional()
      .describe(
        'Makes the artifact refreshable: one artifact per (knowledge base, artifact_type, key); writing the same key again replaces it (200). Absent or null: always a new artifact.',
      ),
    content_id: z
      .guid({ error: 'must be a uuid' })
      .nullable()
      .optional()
      .describe(
        'The content item the artifact is about (uuid of a content item of your account); stored into content_json.content_id too.',
      ),
    is_verified: z
      .boolean()
      .optional()
      .describe('Whether a person or a check verified the artifact (default false; a refresh without it sets false).'),
    content_json: z
      .record(z.string(), z.unknown())
      .refine((v) => contentJsonBytes(v) <= MAX_CONTENT_JSON_BYTES, { error: `must be at most ${MAX_CONTENT_JSON_BYTES} bytes of JSON` })
      .describe(
        `A JSON object of at most ${MAX_CONTENT_JSON_BYTES / 1024} KB. Its string values are indexed for search. \`content_id\` in it, when present, must be a uuid or null and agree with \`content_id\`.`,
      ),
  })
  .superRefine((body, ctx) => {
    if (!('content_id' in body.content_json)) return;
    const inner = body.content_json.content_id;
    if (inner !== null && (typeof inner !== 'string' || !isUuid(inner))) {
      ctx.addIssue({ code: 'custom', path: ['content_json', 'content_id'], message: 'must be a uuid or null' });
    } else if (body.content_id && inner !== null && inner.toLowerCase() !== body.content_id.toLowerCase()) {
      ctx.addIssue({ code: 'custom', path: ['content_json', 'content_id'], message: 'must equal content_id when both are sent' });
    }
  });

export const searchQuery = z.strictObject({
  q: requiredText(500).describe(
    'Words to find (web-search syntax: "quoted phrase", -excluded, or). Passages with every word rank first; when none has them all, passages with any of them are returned.',
  ),
  limit: lenientCount('limit', DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT).describe(
    `Hits to return (default ${DEFAULT_SEARCH_LIMIT}; 0 or negative is read as ${DEFAULT_SEARCH_LIMIT}; above ${MAX_SEARCH_LIMIT} is read as ${MAX_SEARCH_LIMIT}).`,
  ),
});

export const artifactSchema = z
  .object({
    id: z.string(),
    kb_id: z.string().describe('The knowledge base holding it.'),
    artifact_type: z.string(),
    content_id: z.string().nullable().describe('The content item it is about; always equal to content_json.content_id.'),
    is_verified: z.boolean(),
    content_json: z.record(z.string(), z.unknown()),
    created_at: z.string().describe('ISO 8601'),
    updated_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'KnowledgeArtifact' });

export const artifactPage = listEnvelopeSchema(artifactSchema);

export const knowledgeBaseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z
      .enum(['research', 'custom'])
      .describe('`research`: the one research runs fill (created on first use); `custom`: created by you.'),
    description: z.string().nullable(),
    document_count: z.number().int().describe('Indexed documents (artifact texts not counted).'),
    artifact_count: z.number().int(),
    passage_count: z.number().int().describe('Searchable passages, artifact texts included.'),
    created_at: z.string().describe('ISO 8601'),
    updated_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'KnowledgeBase' });

export const searchHitSchema = z
  .object({
    kb_id: z.string(),
    document_id: z.string(),
    passage_id: z.string(),
    position: z.number().int().describe('Index of the passage in its document, from 0.'),
    text: z.string(),
    score: z.number().describe('Relevance (higher is better); comparable within one answer only.'),
    source_url: z.string().nullable(),
    title: z.string().nullable(),
    metadata: z.object({
      artifact_id: z.string().optional().describe('Set when the passage is text of an artifact.'),
      artifact_type: z.string().optional(),
    }),
  })
  .meta({ id: 'KnowledgeSearchHit' });
