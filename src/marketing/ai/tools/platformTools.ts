import { toolDescription, toolInputSchema, toolName } from '../../../sitePlatform/mcp/toolSchema';
import { OPERATIONS, getOperation, type OperationDef } from '../../../sitePlatform/registry';
import type { ToolDef } from '../types';
import { parametersOf } from './jsonSchema';

const PREFIX = 'platform_';

/** The user confirms a gated call; the model never can, so `confirm` is not among its parameters. */
const MODEL_NEVER_SENDS = ['confirm'];

function platformTool(op: OperationDef): ToolDef {
  return {
    name: toolName(op),
    description: toolDescription(op),
    parameters: parametersOf(toolInputSchema(op), MODEL_NEVER_SENDS),
    kind: op.kind,
    confirmGated: op.confirmGated,
    family: 'platform',
  };
}

let all: readonly ToolDef[] | undefined;

/** One tool per registry operation, in registry order (built once: 111 schema conversions). */
export function platformTools(): readonly ToolDef[] {
  all ??= Object.freeze(OPERATIONS.map(platformTool));
  return all;
}

export function operationOfTool(name: string): OperationDef | undefined {
  return name.startsWith(PREFIX) ? getOperation(name.slice(PREFIX.length)) : undefined;
}
