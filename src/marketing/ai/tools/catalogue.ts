import type { ToolDef, TurnCaller } from '../types';
import { holds, mayWrite } from './caller';
import { CONTENT_TOOLS, contentToolDef, type ContentToolSpec } from './contentTools';
import { platformTools } from './platformTools';

// Platform tools mirror the operation routes: the agent route asks an agent key for no permission (any key may run
// any operation; a read-only key only reads), and the dashboard route lets a session user of any role run any
// operation on the account's projects. Content tools ask what their agent routes ask.
const offersContent = (caller: TurnCaller, spec: ContentToolSpec) =>
  holds(caller, spec.permission) && (spec.kind === 'read' || mayWrite(caller));

/** The tools a turn of this caller is offered: platform tools in registry order, then the content tools. Pure. */
export function toolsFor(caller: TurnCaller): ToolDef[] {
  const writes = mayWrite(caller);
  return [
    ...platformTools().filter((tool) => writes || tool.kind === 'read'),
    ...CONTENT_TOOLS.filter((spec) => offersContent(caller, spec)).map(contentToolDef),
  ];
}
