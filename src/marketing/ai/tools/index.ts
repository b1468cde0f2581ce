export { toolsFor } from './catalogue';
export { runTool } from './run';
export type { ToolDeps } from './deps';
export { MAX_CONTENT_CHARS } from './outcome';
