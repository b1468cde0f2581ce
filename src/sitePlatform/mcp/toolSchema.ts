import { z } from 'zod';
import type { OperationDef } from '../registry';

export const toolName = (op: Pick<OperationDef, 'name'>): string => `platform_${op.name}`;

const routing = {
  project_id: z.string().min(1).optional().describe("Pins the call to this project's site binding; optional"),
  site_id: z.string().min(1).optional().describe("The target site; must be one of the account's sites"),
};

/** The operation's own parameters plus the route's project_id/site_id; an operation's own site_id (required) wins. */
export function toolInputSchema(op: OperationDef): z.ZodObject {
  if (!(op.params instanceof z.ZodObject)) throw new Error(`operation ${op.name} has no object parameter schema`);
  const own = op.params.shape as Record<string, unknown>;
  const extra = Object.fromEntries(Object.entries(routing).filter(([key]) => !(key in own)));
  return op.params.extend(extra);
}

/** Names read or write and every gate the operation route will apply, so an agent can send confirm/localeId up front. */
export function toolDescription(op: OperationDef): string {
  const lines = [
    `${op.kind === 'read' ? 'Read' : 'Write'} operation ${op.name} (family ${op.family}), sent as ${op.kind === 'read' ? 'GET' : 'POST'} to the agent operation route.`,
  ];
  const gates: string[] = [];
  if (op.scopes.length) gates.push(`scopes ${op.scopes.join(', ')} (412 missing_scopes)`);
  if (op.confirmGated) gates.push('confirm: true required (412 confirm_required)');
  if (op.requiresOAuth) gates.push('an OAuth connection, not a site token (412 oauth_required)');
  if (op.localeGated) gates.push('localeId of a secondary locale (412 secondary_locale_required)');
  lines.push(gates.length ? `Gates: ${gates.join('; ')}.` : 'Gates: none.');
  if (op.enterpriseOnly) lines.push('Enterprise-plan sites only (the platform answers 402 not_enterprise_plan_site).');
  if (op.note) lines.push(op.note);
  return lines.join(' ');
}
