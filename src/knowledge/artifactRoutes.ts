import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { listEnvelope } from '../http/pagination';
import { route, type RouteDef } from '../http/route';
import { artifactNotFound, errorSpecs } from './errors';
import {
  artifactIdParams, artifactPage, artifactQuery, artifactSchema, DEFAULT_ARTIFACT_LIMIT, kbIdParams, MAX_ARTIFACT_LIMIT,
  scopedArtifactQuery,
} from './schemas';
import * as knowledge from './service';

const tags = ['Knowledge bases'];
const read = { kind: 'agent', permission: 'marketing.content:read' } as const;

const paging = `Answers \`{ data, total, page, limit }\`, most recently updated first; filters combine (AND). \`page\` defaults `
  + `to 1 and \`limit\` to ${DEFAULT_ARTIFACT_LIMIT}; a page or limit of 0 or below is read as the default and a limit `
  + `above ${MAX_ARTIFACT_LIMIT} as ${MAX_ARTIFACT_LIMIT} (the answer's \`page\` and \`limit\` say what was used); a value `
  + 'that is not a whole number is 400. A non-uuid `content_id` is 400.';

export function artifactReadRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/api/agent/knowledge-bases/artifacts', operationId: 'listKnowledgeArtifacts', tags, auth: read,
      summary: 'List the artifacts of every knowledge base of the account.',
      description: `${paging} A non-uuid \`kb_id\` is 400; a \`kb_id\` of another account matches nothing.`,
      query: artifactQuery,
      responses: { 200: { description: 'A page of artifacts', schema: artifactPage } },
    }, async ({ query, auth, deps }) => {
      const { kb_id, artifact_type, content_id, is_verified, page, limit } = query;
      const { rows, total } = await knowledge.listArtifacts(deps.db, accountOf(auth), {
        kbId: kb_id, artifactType: artifact_type, contentId: content_id, isVerified: is_verified, page, limit,
      });
      return { body: listEnvelope(rows, total, { page, limit }) };
    }),

    route({
      method: 'get', path: '/api/agent/knowledge-bases/artifacts/{artifactId}', operationId: 'getKnowledgeArtifact', tags, auth: read,
      summary: 'Get one artifact.',
      description: 'Answers `{ data: artifact }`. A malformed id is 400 `validation_failed` (the spec\'s rule for artifact ids); '
        + 'an unknown id, or one whose knowledge base is not in your account, is 404 `artifact_not_found`.',
      params: artifactIdParams,
      responses: { 200: { description: 'The artifact', schema: z.object({ data: artifactSchema }) } },
      errors: [errorSpecs.artifactNotFound],
    }, async ({ params, auth, deps }) => {
      const artifact = await knowledge.getArtifact(deps.db, accountOf(auth), params.artifactId);
      if (!artifact) throw artifactNotFound();
      return { body: { data: artifact } };
    }),

    route({
      method: 'get', path: '/api/agent/marketing/knowledge-bases/{kbId}/artifacts', operationId: 'listKnowledgeBaseArtifacts', tags, auth: read,
      summary: 'List the artifacts of one knowledge base.',
      description: `${paging} The knowledge base is a path id, so a malformed one answers 404 \`knowledge_base_not_found\` like a missing one or another account's.`,
      params: kbIdParams, query: scopedArtifactQuery,
      responses: { 200: { description: 'A page of artifacts', schema: artifactPage } },
      errors: [errorSpecs.kbNotFound],
    }, async ({ params, query, auth, deps }) => {
      const accountId = accountOf(auth);
      const kb = await knowledge.getKnowledgeBase(deps.db, accountId, params.kbId);
      const { artifact_type, content_id, is_verified, page, limit } = query;
      const { rows, total } = await knowledge.listArtifacts(deps.db, accountId, {
        kbId: kb.id, artifactType: artifact_type, contentId: content_id, isVerified: is_verified, page, limit,
      });
      return { body: listEnvelope(rows, total, { page, limit }) };
    }),

    route({
      method: 'get', path: '/api/agent/marketing/content/research', operationId: 'listResearchArtifacts', tags: [...tags, 'Research'], auth: read,
      summary: 'List the artifacts of the account\'s research knowledge base.',
      description: `${paging} Before the account's first research run there is no research knowledge base yet: the answer is an `
        + 'empty page, and this read does not create one (the first run does).',
      query: scopedArtifactQuery,
      responses: { 200: { description: 'A page of research artifacts', schema: artifactPage } },
    }, async ({ query, auth, deps }) => {
      const accountId = accountOf(auth);
      const { artifact_type, content_id, is_verified, page, limit } = query;
      const kb = await knowledge.findResearchKnowledgeBase(deps.db, accountId);
      if (!kb) return { body: listEnvelope([], 0, { page, limit }) };
      const { rows, total } = await knowledge.listArtifacts(deps.db, accountId, {
        kbId: kb.id, artifactType: artifact_type, contentId: content_id, isVerified: is_verified, page, limit,
      });
      return { body: listEnvelope(rows, total, { page, limit }) };
    }),
  ];
}
