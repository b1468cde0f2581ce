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
  artifactBody,
  artifactSchema,
  createKnowledgeBaseBody,
  documentBody,
  kbIdParams,
  kbListQuery,
  knowledgeBaseSchema,
  MAX_CONTENT_JSON_BYTES,
  MAX_DOCUMENT_CHARS,
  searchHitSchema,
  searchQuery,
} from './schemas';
import * as knowledge from './service';
import * as docs from './docs';

const tags = ['Knowledge bases'];
const read = { kind: 'agent', permission: 'marketing.content:read' } as const;
const write = { kind: 'agent', permission: 'marketing.content:create' } as const;

/** Room for the largest valid body (a character may take 4 bytes of UTF-8); the zod rules give the exact limits. */
const DOCUMENT_BODY_BYTES = 4 * MAX_DOCUMENT_CHARS + 64 * 1024;
const ARTIFACT_BODY_BYTES = 2 * MAX_CONTENT_JSON_BYTES;
const tooLarge = (bytes: number) => ({ status: 413, code: 'payload_too_large', description: docs.payloadTooLargeError(bytes) });

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
    route(
      {
        method: 'get',
        path: '/api/agent/knowledge-bases',
        operationId: 'listKnowledgeBases',
        tags,
        auth: read,
        summary: "List the account's knowledge bases with what each holds.",
        description: docs.listKnowledgeBasesDescription,
        query: kbListQuery,
        responses: { 200: { description: 'A page of knowledge bases', schema: listEnvelopeSchema(knowledgeBaseSchema) } },
      },
      async ({ query, auth, deps }) => {
        const { rows, total } = await knowledge.listKnowledgeBaseSummaries(deps.db, accountOf(auth), query);
        return { body: listEnvelope(rows.map(toKnowledgeBaseJson), total, query) };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/agent/knowledge-bases',
        operationId: 'createKnowledgeBase',
        tags,
        auth: write,
        idempotent: true,
        summary: 'Create a custom knowledge base.',
        description: docs.createKnowledgeBaseDescription,
        body: createKnowledgeBaseBody,
        responses: { 201: { description: 'The knowledge base', schema: knowledgeBaseSchema } },
        errors: [errorSpecs.nameTaken],
      },
      async ({ body, auth, deps }) => {
        const accountId = accountOf(auth);
        const kb = await knowledge.createKnowledgeBase(deps.db, accountId, body);
        return { status: 201, body: toKnowledgeBaseJson(await knowledge.getKnowledgeBaseSummary(deps.db, accountId, kb.id)) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/agent/knowledge-bases/{kbId}',
        operationId: 'getKnowledgeBase',
        tags,
        auth: read,
        summary: 'Get one knowledge base with its counts.',
        description: docs.getKnowledgeBaseDescription,
        params: kbIdParams,
        responses: { 200: { description: 'The knowledge base', schema: knowledgeBaseSchema } },
        errors: [errorSpecs.kbNotFound],
      },
      async ({ params, auth, deps }) => ({
        body: toKnowledgeBaseJson(await knowledge.getKnowledgeBaseSummary(deps.db, accountOf(auth), params.kbId)),
      }),
    ),

    route(
      {
        method: 'post',
        path: '/api/agent/knowledge-bases/{kbId}/documents',
        operationId: 'addKnowledgeDocument',
        tags,
        auth: write,
        idempotent: true,
        maxBodyBytes: DOCUMENT_BODY_BYTES,
        summary: 'Index a document into a knowledge base.',
        description: docs.addKnowledgeDocumentDescription,
        params: kbIdParams,
        body: documentBody,
        responses: {
          201: {
            description: 'Indexed (or already indexed)',
            schema: z.object({ data: z.object({ document_id: z.string(), already_indexed: z.boolean(), passages: z.number().int() }) }),
          },
        },
        errors: [errorSpecs.kbNotFound, tooLarge(DOCUMENT_BODY_BYTES)],
      },
      async ({ params, body, auth, deps }) => {
        const indexed = await knowledge.indexDocument(deps.db, accountOf(auth), params.kbId, {
          sourceUrl: body.source_url ?? null,
          title: body.title,
          text: body.text,
        });
        return {
          status: 201,
          body: { data: { document_id: indexed.documentId, already_indexed: indexed.alreadyIndexed, passages: indexed.passages } },
        };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/agent/knowledge-bases/{kbId}/search',
        operationId: 'searchKnowledgeBase',
        tags,
        auth: read,
        summary: 'Search the passages of a knowledge base, best first.',
        description: docs.searchKnowledgeBaseDescription,
        params: kbIdParams,
        query: searchQuery,
        responses: { 200: { description: 'Hits, best first', schema: z.object({ data: z.array(searchHitSchema) }) } },
        errors: [errorSpecs.kbNotFound],
      },
      async ({ params, query, auth, deps }) => {
        const accountId = accountOf(auth);
        const kb = await knowledge.getKnowledgeBase(deps.db, accountId, params.kbId);
        return { body: { data: await knowledge.searchPassages(deps.db, accountId, query.q, { kbIds: [kb.id], limit: query.limit }) } };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/agent/knowledge-bases/{kbId}/artifacts',
        operationId: 'writeKnowledgeArtifact',
        tags,
        auth: write,
        idempotent: true,
        maxBodyBytes: ARTIFACT_BODY_BYTES,
        summary: 'Store an artifact in a knowledge base (create, or refresh by key).',
        description: docs.writeKnowledgeArtifactDescription,
        params: kbIdParams,
        body: artifactBody,
        responses: {
          201: { description: 'Created', schema: z.object({ data: artifactSchema, created: z.literal(true) }) },
          200: { description: 'Refreshed (same key)', schema: z.object({ data: artifactSchema, created: z.literal(false) }) },
        },
        errors: [errorSpecs.kbNotFound, errorSpecs.invalidReference, tooLarge(ARTIFACT_BODY_BYTES)],
      },
      async ({ params, body, auth, deps }) => {
        const accountId = accountOf(auth);
        await knowledge.getKnowledgeBase(deps.db, accountId, params.kbId);
        const contentId = body.content_id ?? (typeof body.content_json.content_id === 'string' ? body.content_json.content_id : null);
        if (contentId) await assertContentItem(deps, accountId, contentId);
        const { artifact, created } = await knowledge.upsertArtifact(deps.db, accountId, params.kbId, {
          artifactType: body.artifact_type,
          key: body.key ?? null,
          contentId: body.content_id ?? null,
          isVerified: body.is_verified,
          contentJson: body.content_json,
        });
        return created
          ? { status: 201 as const, body: { data: artifact, created: true as const } }
          : { status: 200 as const, body: { data: artifact, created: false as const } };
      },
    ),
  ];
}
