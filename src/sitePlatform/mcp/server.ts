import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mayRun } from '../operations/permissions';
import { OPERATIONS, type OperationDef } from '../registry';
import { remoteInvoker, type AgentRouteTarget, type OperationInvoker } from './agentRouteClient';
import { toolDescription, toolInputSchema, toolName } from './toolSchema';

export type SitePlatformMcpOptions = {
  /** The agent key's read-only flag: such a key is offered only read tools (the operations refuse its writes anyway). */
  readOnly: boolean;
  /** The agent key's permissions: read tools need site_platform:read, write tools site_platform:write. */
  permissions: readonly string[];
  /** Defaults to the full registry; tests may pass a subset. */
  operations?: readonly OperationDef[];
} &
  /** In process (the /mcp route). */
  (
    | { invoke: OperationInvoker }
    /** Over HTTP to an agent operation route elsewhere. */
    | AgentRouteTarget
  );

/**
 * Tools listed to a key: a tool is read or write by its route verb alone, and the key sees only the kinds it may run
 * (a read-only key no writes; reads need site_platform:read, writes site_platform:write). A tool it is not offered is
 * unknown to its session (the SDK answers a call of it as an error result), and the operation service refuses it too.
 */
export const visibleOperations = (
  ops: readonly OperationDef[],
  key: { readOnly: boolean; permissions: readonly string[] },
): OperationDef[] => ops.filter((op) => (!key.readOnly || op.kind === 'read') && mayRun(key.permissions, op.kind));

function toResult(status: number, body: unknown): CallToolResult {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (status >= 200 && status < 300) return { content: [{ type: 'text', text }] };
  // The route's coded error body travels unchanged so the agent can branch on `code`.
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ status, error: body }) }] };
}

/** An MCP server with one platform_<action> tool per registry operation, each answering what the agent operation route would. */
export function createSitePlatformMcpServer(opts: SitePlatformMcpOptions): McpServer {
  const invoke = 'invoke' in opts ? opts.invoke : remoteInvoker(opts);
  const server = new McpServer({ name: 'workyard-site-platform', version: '1.0.0' });
  for (const op of visibleOperations(opts.operations ?? OPERATIONS, opts)) {
    server.registerTool(
      toolName(op),
      {
        description: toolDescription(op),
        inputSchema: toolInputSchema(op),
        annotations: { readOnlyHint: op.kind === 'read', destructiveHint: op.kind === 'write' && op.confirmGated },
      },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        const res = await invoke(op, args);
        return toResult(res.status, res.body);
      },
    );
  }
  return server;
}
