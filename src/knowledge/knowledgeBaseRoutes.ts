import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { invalidReference } from '../http/fieldErrors';
import { listEnvelope, listEnvelopeSchema } from '../http/pagination';
import { route, type RouteDef } from '../http/route';
import { getContent } from '../marketing/content/service';
import { errorSpecs } from './errors';
import { toKnowledgeBaseJson } from './representation';
import {
  artifactBody, artifactSchema, createKnowledgeBaseBody, documentBody, kbIdParams, kbListQuery, knowledgeBaseSchema,
  MAX_CONTENT_JSON_BYTES, MAX_DOCUMENT_CHARS, searchHitSchema, searchQuery,
} from './schemas';
import * as knowledge from './service';

const tags = ['Knowledge bases'];
const read = { kind: 'agent', permission: 'marketing.content:read' } as const;
const write = { kind: 'agent', permission: 'marketing.content:create' } as const;

/** Room for the largest valid body (a character may take 4 bytes of UTF-8); the zod rules give the exact limits. */
const DOCUMENT_BODY_BYTES = 4 * MAX_DOCUMENT_CHARS + 64 * 1024;
const ARTIFACT_BODY_BYTES = 2 * MAX_CONTENT_JSON_BYTES;
const tooLarge = (bytes: number) => ({ status: 413, code: 'payload_too_large', description: `The request body is over ${bytes} bytes. Nothing is written.` });

/** A content item id a write references: 400 `invalid_reference` unless it names an item of the account. */
async function assertContentItem(deps: AppDeps, accountId: string, contentId: string): Promise<void> {
  try {
    await getContent(deps.db, accountId, contentId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw invalidReference('content_id', 'content item');
    throw err;
  }
}

export function knowledgeBaseRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/api/agent/knowledge-bases', operationId: 'listKnowledgeBases', tags, auth: read,
      summary: 'List the account\'s knowledge bases with what each holds.',
      description: 'Not in the spec; designed like the list endpoints of Stripe and OpenAI (vector stores): answers '
        + '`{ data, total, page, limit }`, the research knowledge base first (once it exists), then the others by creation. '
        + 'Each carries `document_count`, `artifact_count` and `passage_count`. Paging reads like the artifact lists '
        + '(0 or below is the default; limit default 25, above 100 read as 100).',
      query: kbListQuery,
      responses: { 200: { description: 'A page of knowledge bases', schema: listEnvelopeSchema(knowledgeBaseSchema) } },
    }, async ({ query, auth, deps }) => {
      const { rows, total } = await knowledge.listKnowledgeBaseSummaries(deps.db, accountOf(auth), query);
      return { body: listEnvelope(rows.map(toKnowledgeBaseJson), total, query) };
    }),

    route({
      method: 'post', path: '/api/agent/knowledge-bases', operationId: 'createKnowledgeBase', tags, auth: write, idempotent: true,
      summary: 'Create a custom knowledge base.',
      description: 'Not in the spec; designed like Stripe\'s create calls: 201 with the object. The research knowledge base '
        + 'is never created here (research runs create it on first use). A name the account already uses, ignoring case, '
        + 'is 409. Honours `Idempotency-Key`.',
      body: createKnowledgeBaseBody,
      responses: { 201: { description: 'The knowledge base', schema: knowledgeBaseSchema } },
      errors: [errorSpecs.nameTaken],
    }, async ({ body, auth, deps }) => {
      const accountId = accountOf(auth);
      const kb = await knowledge.createKnowledgeBase(deps.db, accountId, body);
      return { status: 201, body: toKnowledgeBaseJson(await knowledge.getKnowledgeBaseSummary(deps.db, accountId, kb.id)) };
    }),

    route({
      method: 'get', path: '/api/agent/knowledge-bases/{kbId}', operationId: 'getKnowledgeBase', tags, auth: read,
      summary: 'Get one knowledge base with its counts.',
      description: 'Not in the spec. Answers the object itself, like the create call.',
      params: kbIdParams,
      responses: { 200: { description: 'The knowledge base', schema: knowledgeBaseSchema } },
      errors: [errorSpecs.kbNotFound],
    }, async ({ params, auth, deps }) => ({
      body: toKnowledgeBaseJson(await knowledge.getKnowledgeBaseSummary(deps.db, accountOf(auth), params.kbId)),
    })),

    route({
      method: 'post', path: '/api/agent/knowledge-bases/{kbId}/documents', operationId: 'addKnowledgeDocument', tags, auth: write, idempotent: true,
      maxBodyBytes: DOCUMENT_BODY_BYTES,
      summary: 'Index a document into a knowledge base.',
      description: 'Not in the spec; designed like OpenAI\'s vector-store files: the text is split into passages (about 300 to '
        + '1,200 characters, paragraphs kept whole when they fit) and indexed for search at once. Answers 201 '
        + '`{ data: { document_id, already_indexed, passages } }`. A `source_url` the knowledge base already holds is not '
        + 'indexed again: the answer names the stored document with `already_indexed` true and its stored passage count, '
        + 'and nothing is written (so retries and concurrent calls never duplicate passages).',
      params: kbIdParams, body: documentBody,
      responses: {
        201: {
          description: 'Indexed (or already indexed)',
          schema: z.object({ data: z.object({ document_id: z.string(), already_indexed: z.boolean(), passages: z.number().int() }) }),
        },
      },
      errors: [errorSpecs.kbNotFound, tooLarge(DOCUMENT_BODY_BYTES)],
    }, async ({ params, body, auth, deps }) => {
      const indexed = await knowledge.indexDocument(deps.db, accountOf(auth), params.kbId, {
        sourceUrl: body.source_url ?? null, title: body.title, text: body.text,
      });
      return { status: 201, body: { data: { document_id: indexed.documentId, already_indexed: indexed.alreadyIndexed, passages: indexed.passages } } };
    }),

    route({
      method: 'get', path: '/api/agent/knowledge-bases/{kbId}/search', operationId: 'searchKnowledgeBase', tags, auth: read,
      summary: 'Search the passages of a knowledge base, best first.',
      description: 'Not in the spec; designed like OpenAI\'s vector-store search: answers `{ data: hits }` ranked by relevance '
        + '(Postgres full text). Passages holding every word come first; when none does, passages holding any of them. '
        + 'A hit from an artifact\'s text carries `metadata.artifact_id` and `metadata.artifact_type`; other hits have empty `metadata`.',
      params: kbIdParams, query: searchQuery,
      responses: { 200: { description: 'Hits, best first', schema: z.object({ data: z.array(searchHitSchema) }) } },
      errors: [errorSpecs.kbNotFound],
    }, async ({ params, query, auth, deps }) => {
      const accountId = accountOf(auth);
      const kb = await knowledge.getKnowledgeBase(deps.db, accountId, params.kbId);
      return { body: { data: await knowledge.searchPassages(deps.db, accountId, query.q, { kbIds: [kb.id], limit: query.limit }) } };
    }),

    route({
      method: 'post', path: '/api/agent/knowledge-bases/{kbId}/artifacts', operationId: 'writeKnowledgeArtifact', tags, auth: write, idempotent: true,
      maxBodyBytes: ARTIFACT_BODY_BYTES,
      summary: 'Store an artifact in a knowledge base (create, or refresh by key).',
      description: 'Not in the spec; designed like an upsert by external key (Stripe\'s idempotent writes, Shopify\'s metafields): '
        + 'any `artifact_type` a writer chooses; without `key` each call adds an artifact (201); with `key` there is one artifact '
        + 'per (knowledge base, type, key), and a second call replaces its `content_id`, `is_verified` and `content_json` '
        + '(200; `created_at` kept). `content_json.content_id` is set to `content_id`. The artifact\'s text (the string values '
        + 'of `content_json`) is indexed for search, replaced on refresh. Answers `{ data: artifact, created }`.',
      params: kbIdParams, body: artifactBody,
      responses: {
        201: { description: 'Created', schema: z.object({ data: artifactSchema, created: z.literal(true) }) },
        200: { description: 'Refreshed (same key)', schema: z.object({ data: artifactSchema, created: z.literal(false) }) },
      },
      errors: [errorSpecs.kbNotFound, errorSpecs.invalidReference, tooLarge(ARTIFACT_BODY_BYTES)],
    }, async ({ params, body, auth, deps }) => {
      const accountId = accountOf(auth);
      await knowledge.getKnowledgeBase(deps.db, accountId, params.kbId);
      const contentId = body.content_id ?? (typeof body.content_json.content_id === 'string' ? body.content_json.content_id : null);
      if (contentId) await assertContentItem(deps, accountId, contentId);
      const { artifact, created } = await knowledge.upsertArtifact(deps.db, accountId, params.kbId, {
        artifactType: body.artifact_type, key: body.key ?? null, contentId: body.content_id ?? null,
        isVerified: body.is_verified, contentJson: body.content_json,
      });
      return { status: created ? 201 : 200, body: { data: artifact, created } };
    }),
  ];
}
