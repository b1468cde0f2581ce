import type { Permission } from '../../auth/permissions';
import type { OperationKind } from '../registry';

/**
 * The agent key permission an operation needs, by its kind alone (the same split as the route verb and the read-only
 * rule): every read needs site_platform:read, every write site_platform:write. Sessions and the service secret on the
 * dashboard route need none.
 */
export const OPERATION_PERMISSION: Readonly<Record<OperationKind, Permission>> = {
  read: 'site_platform:read',
  write: 'site_platform:write',
};

/** The kind of operation a route verb may run: GET reads; anything else is a write (or answers wrong_verb). */
export const kindOfVerb = (method: string): OperationKind => (method.toUpperCase() === 'GET' ? 'read' : 'write');

/** Whether a key holding `permissions` may run operations of this kind. */
export const mayRun = (permissions: readonly string[], kind: OperationKind): boolean => permissions.includes(OPERATION_PERMISSION[kind]);
