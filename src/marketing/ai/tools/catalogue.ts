import type { Permission } from '../../../auth/permissions';
import { OPERATION_PERMISSION } from '../../../sitePlatform/operations/permissions';
import type { ToolDef, TurnCaller } from '../types';
import { holds, mayWrite } from './caller';
import { CONTENT_TOOLS, contentToolDef } from './contentTools';
import { platformTools } from './platformTools';

// Each tool asks what its route asks: a platform tool what the agent operation route asks an agent key
// (site_platform:read for a read, site_platform:write for a write; a read-only key only reads), while the dashboard
// route lets a session user of any role run any operation on the account's projects; a content tool what its agent
// route asks.
const offers = (caller: TurnCaller, permission: Permission, kind: 'read' | 'write') =>
  holds(caller, permission) && (kind === 'read' || mayWrite(caller));

/** The tools a turn of this caller is offered: platform tools in registry order, then the content tools. Pure. */
export function toolsFor(caller: TurnCaller): ToolDef[] {
  return [
    ...platformTools().filter((tool) => offers(caller, OPERATION_PERMISSION[tool.kind], tool.kind)),
    ...CONTENT_TOOLS.filter((spec) => offers(caller, spec.permission, spec.kind)).map(contentToolDef),
  ];
}
