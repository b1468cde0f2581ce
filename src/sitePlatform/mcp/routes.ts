import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { missingPermission } from '../../auth/authenticate';
import { assertJsonDepth } from '../../http/jsonDepth';
import { route, type RouteDef } from '../../http/route';
import { OPERATION_PERMISSION, mayRun } from '../operations/permissions';
import * as docs from './docs';
import { inProcessInvoker } from './inProcess';
import { jsonRpcErrorSchema, mcpReplySchema, type JsonRpcError, type McpReply } from './jsonRpc';
import { createSitePlatformMcpServer } from './server';

export const MCP_PATH = '/mcp';

/** The statuses the transport answers a POST it refuses with, each with a JSON-RPC error. */
const REFUSALS = [400, 406, 415] as const;
type Refusal = (typeof REFUSALS)[number];
const isRefusal = (status: number): status is Refusal => (REFUSALS as readonly number[]).includes(status);

type McpAnswer =
  | { status: 200; body: McpReply; headers: Record<string, string> }
  | { status: 202; headers: Record<string, string> }
  | { status: Refusal; body: JsonRpcError; headers: Record<string, string> };

/** The transport's answer as the route's: a JSON-RPC reply (200), an accepted notification (202), or a refusal. */
async function answerOf(response: Response): Promise<McpAnswer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const { status } = response;
  if (status === 202) return { status, headers };
  // The transport answers JSON (enableJsonResponse): what it wrote is passed on as it is.
  if (status === 200) return { status, body: JSON.parse(await response.text()) as McpReply, headers };
  if (isRefusal(status)) return { status, body: JSON.parse(await response.text()) as JsonRpcError, headers };
  throw new Error(`the MCP transport answered ${status}, which the route does not list`);
}

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
        tags: ['Site platform'],
        auth: { kind: 'agent', readOnlyMayPost: true },
        rawBody: true,
        summary: 'MCP (Streamable HTTP, stateless): one platform_<action> tool per site-platform operation.',
        description: docs.MCP,
        responses: {
          200: { description: 'The JSON-RPC response (an array of them for a batch)', schema: mcpReplySchema },
          202: { description: 'Only notifications or responses were sent: accepted, no body' },
          400: {
            description:
              'Not JSON, not a JSON-RPC message (-32700), an invalid request (-32600) or an unsupported MCP-Protocol-Version (-32000)',
            schema: jsonRpcErrorSchema,
          },
          406: { description: '`Accept` does not list both application/json and text/event-stream (-32000)', schema: jsonRpcErrorSchema },
          415: { description: '`Content-Type` is not application/json (-32000)', schema: jsonRpcErrorSchema },
        },
        errors: [
          {
            status: 403,
            code: 'missing_permission',
            description: 'The key holds neither site_platform:read nor site_platform:write, so it could use no tool.',
          },
        ],
      },
      async ({ ctx, deps, auth, rawBody, requestId }) => {
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
          return await answerOf(await transport.handleRequest(request));
        } finally {
          await server.close();
        }
      },
    ),
  ];
}
