import { z } from 'zod';
import { ApiError } from '../../http/errors';
import { route, type RouteDef } from '../../http/route';
import * as docs from './docs';

const devStoreBody = z.strictObject({
  name: z.string().trim().min(1).max(100).optional().describe('Name of the development store.'),
});

/**
 * Development-store provisioning through the platform's Partner API. It needs COMMERCE_PARTNER_API_TOKEN and
 * COMMERCE_PARTNER_ORG_ID; without them it answers 501 as the spec says. With them it still answers 501: the
 * Partner API call is not implemented yet (the simulator has no Partner API to build it against).
 */
export function provisioningRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/commerce/dev-stores',
        operationId: 'createCommerceDevStore',
        tags: ['Commerce'],
        auth: { kind: 'session', roles: ['owner', 'admin'] },
        summary: 'Provision a development store (not available yet).',
        description: docs.createCommerceDevStoreDescription,
        body: devStoreBody,
        responses: { 201: { description: 'Never answered yet' } },
        errors: [
          {
            status: 501,
            code: 'provisioning_not_configured',
            description: 'COMMERCE_PARTNER_API_TOKEN or COMMERCE_PARTNER_ORG_ID is missing.',
          },
          {
            status: 501,
            code: 'provisioning_not_implemented',
            description: 'The partner variables are set, but provisioning is not built yet.',
          },
        ],
      },
      async ({ deps }) => {
        const missing = (['COMMERCE_PARTNER_API_TOKEN', 'COMMERCE_PARTNER_ORG_ID'] as const).filter((name) => !deps.config[name]);
        if (missing.length) {
          throw new ApiError(501, 'provisioning_not_configured', `dev-store provisioning needs ${missing.join(' and ')} on the service`, {
            details: { missing },
          });
        }
        throw new ApiError(501, 'provisioning_not_implemented', 'dev-store provisioning through the Partner API is not implemented yet');
      },
    ),
  ];
}
