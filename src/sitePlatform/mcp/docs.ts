/** Long OpenAPI prose of the MCP route, kept out of the route declaration. */

export const MCP =
  'Authorization: Bearer <agent API key>. A key lists and calls only the tools it may use: read tools need `site_platform:read`, write tools `site_platform:write`, and a read-only key gets read tools only; a tool it is not offered answers as an unknown tool (an error result). A key holding neither permission is 403 `missing_permission`. ' +
  'Each tool call runs as /api/agent/web/site-platform-ops would run it for the same key: same checks, gates, idempotency slot and audit. ' +
  "A tool's input schema takes no other argument (`additionalProperties: false`): a call with an unknown argument is an error result naming it, and nothing is sent.";
