import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { missingPermission } from '../../auth/authenticate';
import { assertJsonDepth } from '../../http/jsonDepth';
import { route, type RouteDef, type RouteResult } from '../../http/route';
import { OPERATION_PERMISSION, mayRun } from '../operations/permissions';
import * as docs from './docs';
import { inProcessInvoker } from './inProcess';
import { createSitePlatformMcpServer } from './server';

export const MCP_PATH = '/mcp';

/**
 * POST /mcp: the site-platform MCP server over the SDK's Streamable HTTP transport, stateless, JSON responses.
 * Authenticated like every agent route, except that a read-only key's POST is served: it gets the read tools only,
 * and the operation service refuses its writes. A key lists the tools its permissions allow (site_platform:read for
 * reads, site_platform:write for writes); one holding neither is 403 missing_permission. Tools run the operations in
 * this process (no request back to the API).
 */
export function sitePlatformMcpRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: MCP_PATH,
        operationId: 'sitePlatformMcp',
        tags: ['site-platform'],
        auth: { kind: 'agent', readOnlyMayPost: true },
        rawBody: true,
        summary: 'MCP (Streamable HTTP, stateless): one platform_<action> tool per site-platform operation.',
        description: docs.MCP,
        responses: { 200: { description: 'A JSON-RPC response' }, 202: { description: 'A notification was accepted' } },
        errors: [
          {
            status: 403,
            code: 'missing_permission',
            description: 'The key holds neither site_platform:read nor site_platform:write, so it could use no tool.',
          },
        ],
      },
      async ({ ctx, deps, auth, rawBody, requestId }): Promise<RouteResult> => {
        if (auth.kind !== 'agent') throw new Error('MCP route without an agent key');
        assertJsonDepth(rawBody);
        if (!mayRun(auth.permissions, 'read') && !mayRun(auth.permissions, 'write')) {
          throw missingPermission(`${OPERATION_PERMISSION.read} or ${OPERATION_PERMISSION.write}`);
        }
        const server = createSitePlatformMcpServer({
          invoke: inProcessInvoker(deps, auth, requestId),
          readOnly: auth.readOnly,
          permissions: auth.permissions,
        });
        const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        await server.connect(transport);
        try {
          const headers = new Headers();
          for (const [name, value] of Object.entries(ctx.headers)) if (typeof value === 'string') headers.set(name, value);
          const request = new Request(`http://localhost${MCP_PATH}`, { method: 'POST', headers, body: new Uint8Array(rawBody) });
          const response = await transport.handleRequest(request);
          const text = await response.text();
          const out: Record<string, string> = {};
          response.headers.forEach((value, name) => {
            out[name] = value;
          });
          let body: unknown = undefined;
          if (text) {
            try {
              body = JSON.parse(text);
            } catch {
              body = text;
            }
          }
          return { status: response.status, body, headers: out };
        } finally {
          await server.close();
        }
      },
    ),
  ];
}
