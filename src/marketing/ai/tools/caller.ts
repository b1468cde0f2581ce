import type { Permission } from '../../../auth/permissions';
import type { Actor } from '../../actor';
import type { TurnCaller } from '../types';

/** An agent key holds only its permissions; a session user (any role) holds every marketing permission (twins.ts). */
export function holds(caller: TurnCaller, permission: Permission): boolean {
  return caller.kind === 'session' || caller.permissions.includes(permission);
}

/** Only an agent key can be read-only; a session may write whatever its permissions allow. */
export const mayWrite = (caller: TurnCaller): boolean => caller.kind === 'session' || !caller.readOnly;

/** Who a content write is recorded as (versions): the turn acts as its caller. */
export function contentActorOf(caller: TurnCaller): Actor {
  return caller.kind === 'session' ? { type: 'user', id: caller.userId } : { type: 'agent', id: caller.keyId };
}
