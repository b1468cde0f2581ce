import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { route, type RouteDef } from '../http/route';
import { refId } from '../http/ids';
import * as pipeline from './pipelineService';
import * as docs from './docs';

const tags = ['CRM'];
const auth = { kind: 'session' } as const;

const moveBody = z.strictObject({ contactId: refId(), stageId: refId() });

const stageSchema = z
  .object({
    id: z.string().describe('Send as `stageId` to move a contact or a deal here.'),
    pipelineId: z.string(),
    name: z.string(),
    position: z.number().int().describe('Board order, from 1.'),
    kind: z.enum(['open', 'won', 'lost']).describe('`won` and `lost` stages close a deal (a deal moved into `won` gets `wonAt`).'),
    contactCount: z.number().int().describe('Contacts currently in this stage.'),
    dealCount: z.number().int().describe('Deals currently in this stage.'),
  })
  .meta({ id: 'PipelineStage' });

const moveResponse = z
  .object({ contactId: z.string(), stageId: z.string(), pipelineId: z.string(), movedAt: z.string() })
  .meta({ id: 'ContactStageMove' });

const invalidRef = { status: 400, code: 'invalid_reference', description: docs.invalidReferenceError };

export function pipelineRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/crm/pipeline/stages',
        operationId: 'listCrmPipelineStages',
        tags,
        auth,
        summary: "The stages of the account's pipeline, in board order, with counts.",
        description: docs.listCrmPipelineStagesDescription,
        query: z.strictObject({}),
        responses: { 200: { description: 'The stages', schema: z.object({ data: z.array(stageSchema) }) } },
      },
      async ({ auth, deps }) => {
        const stages = await pipeline.listStages(deps.db, accountOf(auth));
        return {
          body: {
            data: stages.map((s) => ({
              id: s.id,
              pipelineId: s.pipeline_id,
              name: s.name,
              position: s.position,
              kind: s.kind,
              contactCount: s.contact_count,
              dealCount: s.deal_count,
            })),
          },
        };
      },
    ),

    route(
      {
        method: 'post',
        path: '/api/crm/pipeline/move',
        operationId: 'moveCrmContact',
        tags,
        auth,
        summary: 'Move a contact to a pipeline stage.',
        description: docs.moveCrmContactDescription,
        body: moveBody,
        responses: { 200: { description: 'Where the contact now is', schema: moveResponse } },
        errors: [invalidRef],
      },
      async ({ body, auth, deps }) => {
        const placed = await pipeline.moveContact(deps.db, accountOf(auth), body);
        return {
          body: {
            contactId: placed.contact_id,
            stageId: placed.stage_id,
            pipelineId: placed.pipeline_id,
            movedAt: new Date(placed.moved_at).toISOString(),
          },
        };
      },
    ),
  ];
}
