import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { listEnvelope } from '../http/pagination';
import { route, type RouteDef } from '../http/route';
import { artifactNotFound, errorSpecs } from './errors';
import { artifactIdParams, artifactPage, artifactQuery, artifactSchema, kbIdParams, scopedArtifactQuery } from './schemas';
import * as knowledge from './service';
import * as docs from './docs';

const tags = ['Knowledge bases'];
const read = { kind: 'agent', permission: 'marketing.content:read' } as const;

export function artifactReadRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/agent/knowledge-bases/artifacts',
        operationId: 'listKnowledgeArtifacts',
        tags,
        auth: read,
        summary: 'List the artifacts of every knowledge base of the account.',
        description: docs.listKnowledgeArtifactsDescription,
        query: artifactQuery,
        responses: { 200: { description: 'A page of artifacts', schema: artifactPage } },
      },
      async ({ query, auth, deps }) => {
        const { kb_id, artifact_type, content_id, is_verified, page, limit } = query;
        const { rows, total } = await knowledge.listArtifacts(deps.db, accountOf(auth), {
          kbId: kb_id,
          artifactType: artifact_type,
          contentId: content_id,
          isVerified: is_verified,
          page,
          limit,
        });
        return { body: listEnvelope(rows, total, { page, limit }) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/agent/knowledge-bases/artifacts/{artifactId}',
        operationId: 'getKnowledgeArtifact',
        tags,
        auth: read,
        summary: 'Get one artifact.',
        description: docs.getKnowledgeArtifactDescription,
        params: artifactIdParams,
        responses: { 200: { description: 'The artifact', schema: z.object({ data: artifactSchema }) } },
        errors: [errorSpecs.artifactNotFound],
      },
      async ({ params, auth, deps }) => {
        const artifact = await knowledge.getArtifact(deps.db, accountOf(auth), params.artifactId);
        if (!artifact) throw artifactNotFound();
        return { body: { data: artifact } };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/agent/marketing/knowledge-bases/{kbId}/artifacts',
        operationId: 'listKnowledgeBaseArtifacts',
        tags,
        auth: read,
        summary: 'List the artifacts of one knowledge base.',
        description: `${docs.paging} The knowledge base is a path id, so a malformed one answers 404 \`knowledge_base_not_found\` like a missing one or another account's.`,
        params: kbIdParams,
        query: scopedArtifactQuery,
        responses: { 200: { description: 'A page of artifacts', schema: artifactPage } },
        errors: [errorSpecs.kbNotFound],
      },
      async ({ params, query, auth, deps }) => {
        const accountId = accountOf(auth);
        const kb = await knowledge.getKnowledgeBase(deps.db, accountId, params.kbId);
        const { artifact_type, content_id, is_verified, page, limit } = query;
        const { rows, total } = await knowledge.listArtifacts(deps.db, accountId, {
          kbId: kb.id,
          artifactType: artifact_type,
          contentId: content_id,
          isVerified: is_verified,
          page,
          limit,
        });
        return { body: listEnvelope(rows, total, { page, limit }) };
      },
    ),

    route(
      {
        method: 'get',
        path: '/api/agent/marketing/content/research',
        operationId: 'listResearchArtifacts',
        tags: [...tags, 'Research'],
        auth: read,
        summary: "List the artifacts of the account's research knowledge base.",
        description: docs.listResearchArtifactsDescription,
        query: scopedArtifactQuery,
        responses: { 200: { description: 'A page of research artifacts', schema: artifactPage } },
      },
      async ({ query, auth, deps }) => {
        const accountId = accountOf(auth);
        const { artifact_type, content_id, is_verified, page, limit } = query;
        const kb = await knowledge.findResearchKnowledgeBase(deps.db, accountId);
        if (!kb) return { body: listEnvelope([], 0, { page, limit }) };
        const { rows, total } = await knowledge.listArtifacts(deps.db, accountId, {
          kbId: kb.id,
          artifactType: artifact_type,
          contentId: content_id,
          isVerified: is_verified,
          page,
          limit,
        });
        return { body: listEnvelope(rows, total, { page, limit }) };
      },
    ),
  ];
}
