export { createSitePlatformMcpServer, visibleOperations, type SitePlatformMcpOptions } from './server';
export {
  AGENT_OPS_PATH,
  callAgentOperation,
  remoteInvoker,
  toQuery,
  type AgentRouteResponse,
  type AgentRouteTarget,
  type OperationInvoker,
} from './agentRouteClient';
export { inProcessInvoker } from './inProcess';
export { toolDescription, toolInputSchema, toolName } from './toolSchema';
export { MCP_PATH, sitePlatformMcpRoutes } from './routes';
