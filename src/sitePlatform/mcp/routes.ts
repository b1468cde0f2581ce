import type { Context } from 'koa';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { authenticateAgentKey } from '../../auth/service';
import { ApiError } from '../../http/errors';
import { route, type RouteDef, type RouteResult } from '../../http/route';
import { createSitePlatformMcpServer } from './server';

export const MCP_PATH = '/mcp';

/**
 * The agent operation route on this same process, reached over loopback through the socket the request came in on.
 * Never built from the Host header: the server forwards the caller's key there.
 */
function selfOrigin(ctx: Context): string {
  const { localAddress, localPort } = ctx.req.socket;
  const host = !localAddress ? '127.0.0.1' : localAddress.includes(':') && !localAddress.startsWith('::ffff:')
    ? `[${localAddress}]` : localAddress.replace(/^::ffff:/, '');
  return `http://${host}:${localPort}`;
}

/**
 * POST /mcp: the site-platform MCP server over the SDK's Streamable HTTP transport, stateless, JSON responses.
 * The agent key is checked here rather than by the `agent` AuthSpec, which refuses every POST from a read-only key;
 * a read-only key is served too, with the read tools only.
 */
export function sitePlatformMcpRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: MCP_PATH, operationId: 'sitePlatformMcp', tags: ['site-platform'], auth: { kind: 'none' }, rawBody: true,
      summary: 'MCP (Streamable HTTP, stateless): one platform_<action> tool per site-platform operation.',
      description: 'Authorization: Bearer <agent API key>. A read-only key lists and calls only read tools. Each tool call is forwarded to /api/agent/web/site-platform-ops with the same key.',
      responses: { 200: { description: 'A JSON-RPC response' }, 202: { description: 'A notification was accepted' } },
      errors: [
        { status: 401, code: 'missing_credentials', description: 'No bearer credential.' },
        { status: 401, code: 'invalid_credentials', description: 'The agent key is invalid or revoked.' },
      ],
    }, async ({ ctx, deps, rawBody }): Promise<RouteResult> => {
      const token = /^Bearer\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
      if (!token) throw new ApiError(401, 'missing_credentials', 'send an agent key as Authorization: Bearer <key>');
      const auth = await authenticateAgentKey(deps.db, deps.secretHashKey, token);
      if (!auth || auth.kind !== 'agent') throw new ApiError(401, 'invalid_credentials', 'the credential is invalid or revoked');

      const server = createSitePlatformMcpServer({ apiBaseUrl: selfOrigin(ctx), agentKey: token, readOnly: auth.readOnly });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        const headers = new Headers();
        for (const [name, value] of Object.entries(ctx.headers)) if (typeof value === 'string') headers.set(name, value);
        const request = new Request(`http://localhost${MCP_PATH}`, { method: 'POST', headers, body: new Uint8Array(rawBody) });
        const response = await transport.handleRequest(request);
        const text = await response.text();
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => { out[name] = value; });
        let body: unknown = undefined;
        if (text) { try { body = JSON.parse(text); } catch { body = text; } }
        return { status: response.status, body, headers: out };
      } finally {
        await server.close();
      }
    }),
  ];
}
