import { z } from 'zod';
import { accountOf } from '../auth/authenticate';
import { route, type RouteDef, type SpecHandler } from '../http/route';
import * as docs from './docs';
import { BILLING_STANDINGS, imageUsage, readPlan } from './service';

const tags = ['Account'];

const planSchema = z
  .object({
    plan: z.string().describe('Plan name, set by an operator; `standard` until then.'),
    image_allowance_monthly: z.number().int().nullable().describe('Images per UTC month; null = unlimited.'),
    billing_standing: z.enum(BILLING_STANDINGS).describe('Image runs need `good` (402 `billing_standing` otherwise).'),
    images: z.object({
      period: z.string().describe('The UTC month, `YYYY-MM`.'),
      allowance: z.number().int().nullable().describe('null = unlimited.'),
      used: z.number().int().describe('Images rendered this period.'),
      reserved: z.number().int().describe('Units held by runs still rendering.'),
      remaining: z.number().int().nullable().describe('allowance − used − reserved (at least 0); null when unlimited.'),
      resets_at: z.string().meta({ format: 'date-time', description: 'Start of the next period (UTC).' }),
    }),
  })
  .meta({ id: 'AccountPlan' });

const spec = {
  method: 'get',
  tags,
  summary: "The account's plan, billing standing and monthly image allowance.",
  description: docs.GET_PLAN,
  responses: { 200: { description: 'The plan', schema: planSchema } },
} as const;

const getPlan: SpecHandler<never, never, never, typeof spec.responses> = async ({ auth, deps }) => {
  const accountId = accountOf(auth);
  const [plan, images] = await Promise.all([readPlan(deps.db, accountId), imageUsage(deps.db, accountId, new Date())]);
  return { body: { ...plan, images } };
};

/** The account's plan: members read it; only the operator command changes it. */
export function billingRoutes(): RouteDef[] {
  return [
    route({ ...spec, path: '/api/account/plan', operationId: 'getAccountPlan', auth: { kind: 'session' } }, getPlan),
    // Any agent key, like /api/agent/me: an agent about to run images reads what is left.
    route({ ...spec, path: '/api/agent/account/plan', operationId: 'getAccountPlanAgent', auth: { kind: 'agent' } }, getPlan),
  ];
}
