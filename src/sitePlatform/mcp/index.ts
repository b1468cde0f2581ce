export { createSitePlatformMcpServer, visibleOperations, type SitePlatformMcpOptions } from './server';
export { AGENT_OPS_PATH, callAgentOperation, toQuery, type AgentRouteResponse, type AgentRouteTarget } from './agentRouteClient';
export { toolDescription, toolInputSchema, toolName } from './toolSchema';
export { MCP_PATH, sitePlatformMcpRoutes } from './routes';
