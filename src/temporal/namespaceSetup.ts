import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { describeProblem, hasWrongType, indexedValueTypeOf, isMissing, readAttributeStates, typeNameOf } from './namespaceCheck';

const GRPC_NOT_FOUND = 5;
const GRPC_ALREADY_EXISTS = 6;
/** A namespace registered a moment ago reaches the frontend's namespace cache within seconds. */
const NEW_NAMESPACE_WAIT_MS = 30_000;
const POLL_MS = 250;

export const DEFAULT_RETENTION_DAYS = 7;

/** An attribute the namespace has with another type: Temporal cannot change it, an operator must. */
export class SearchAttributeConflict extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'SearchAttributeConflict';
  }
}

const codeOf = (err: unknown) => (err as { code?: number }).code;

/** Runs `fn` until it stops failing with NOT_FOUND (a namespace not yet known to the frontend), for up to `ms`. */
async function whileNotFound<T>(fn: () => Promise<T>, ms = NEW_NAMESPACE_WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (codeOf(err) !== GRPC_NOT_FOUND || Date.now() >= deadline) throw err;
      await sleep(POLL_MS);
    }
  }
}

async function ensureNamespace(client: Client, namespace: string, retentionDays: number): Promise<string> {
  try {
    await client.workflowService.describeNamespace({ namespace });
    return `namespace ${namespace}: already present`;
  } catch (err) {
    if (codeOf(err) !== GRPC_NOT_FOUND) throw err;
  }
  let outcome = `namespace ${namespace}: created (retention ${retentionDays} days)`;
  try {
    await client.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`),
      description: 'Workyard jobs and schedules',
    });
  } catch (err) {
    if (codeOf(err) !== GRPC_ALREADY_EXISTS) throw err;
    outcome = `namespace ${namespace}: already present`; // registered concurrently
  }
  await whileNotFound(() => client.workflowService.describeNamespace({ namespace }));
  return outcome;
}

/**
 * Makes the namespace ready for Workyard: registers it when missing, then adds every search attribute of
 * SEARCH_ATTRIBUTE_KEYS it lacks. Answers one line per item (created / already present); a second run changes
 * nothing. An attribute present with another type throws SearchAttributeConflict before anything is added.
 */
export async function setupNamespace(client: Client, namespace: string, retentionDays = DEFAULT_RETENTION_DAYS): Promise<string[]> {
  const lines = [await ensureNamespace(client, namespace, retentionDays)];
  const states = await whileNotFound(() => readAttributeStates(client, namespace));
  const conflicts = states.filter(hasWrongType);
  if (conflicts.length) throw new SearchAttributeConflict(conflicts.map(describeProblem));
  const missing = states.filter(isMissing);
  if (missing.length) {
    await whileNotFound(() =>
      client.connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map((a) => [a.key.name, indexedValueTypeOf(a.key)])),
      }),
    );
  }
  for (const a of states)
    lines.push(`search attribute ${a.key.name} (${typeNameOf(a.key)}): ${isMissing(a) ? 'created' : 'already present'}`);
  return lines;
}
