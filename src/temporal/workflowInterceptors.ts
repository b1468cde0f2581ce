/**
 * Workflow interceptor modules bundled with every workflow (each module exports `interceptors`). They run inside the
 * workflow sandbox, so they follow the same determinism rules as workflow code.
 */
export const WORKFLOW_INTERCEPTOR_MODULES: string[] = [];
