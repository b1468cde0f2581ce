import { z } from 'zod';

const id = z.union([z.string(), z.number()]).nullable().describe('The id of the request answered; null when it could not be read.');

/** A JSON-RPC 2.0 error response: what the transport answers to a message it cannot take, and a method's failure. */
export const jsonRpcErrorSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id,
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
  })
  .meta({ id: 'JsonRpcError' });

const jsonRpcResultSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id,
    result: z.record(z.string(), z.unknown()).describe("The method's result, as MCP defines it (initialize, tools/list, tools/call…)."),
  })
  .meta({ id: 'JsonRpcResult' });

const jsonRpcResponseSchema = z.union([jsonRpcResultSchema, jsonRpcErrorSchema]);

/** What POST /mcp answers to requests: one JSON-RPC response, or an array of them for a batch. */
export const mcpReplySchema = z.union([
  jsonRpcResponseSchema,
  z.array(jsonRpcResponseSchema).describe('A batch: one response per request.'),
]);

export type McpReply = z.output<typeof mcpReplySchema>;
export type JsonRpcError = z.output<typeof jsonRpcErrorSchema>;
