import type { Client } from '@temporalio/client';
import type { SearchAttributeType } from '@temporalio/common';
import { SEARCH_ATTRIBUTE_KEYS } from './searchAttributes';

type Key = (typeof SEARCH_ATTRIBUTE_KEYS)[number];

/** The command that creates the namespace and the search attributes; every start-up check names it. */
export const SETUP_COMMAND = 'npm run cli -- temporal setup';

// Temporal's IndexedValueType numbers, and the names its CLI and UI give them.
const INDEXED_VALUE_TYPES: Record<SearchAttributeType, { value: number; name: string }> = {
  TEXT: { value: 1, name: 'Text' },
  KEYWORD: { value: 2, name: 'Keyword' },
  INT: { value: 3, name: 'Int' },
  DOUBLE: { value: 4, name: 'Double' },
  BOOL: { value: 5, name: 'Bool' },
  DATETIME: { value: 6, name: 'Datetime' },
  KEYWORD_LIST: { value: 7, name: 'KeywordList' },
};

export const indexedValueTypeOf = (key: Key) => INDEXED_VALUE_TYPES[key.type].value;
export const typeNameOf = (key: Key) => INDEXED_VALUE_TYPES[key.type].name;

export function indexedValueTypeName(value: number): string {
  return Object.values(INDEXED_VALUE_TYPES).find((t) => t.value === value)?.name ?? `type ${value}`;
}

/** One search attribute the code sets, as the namespace has it. */
export interface AttributeState {
  key: Key;
  /** Absent when the namespace has no attribute of that name. */
  actualType?: number;
}

export const isMissing = (a: AttributeState) => a.actualType === undefined;
export const hasWrongType = (a: AttributeState) => a.actualType !== undefined && a.actualType !== indexedValueTypeOf(a.key);

/** Every search attribute of SEARCH_ATTRIBUTE_KEYS against the namespace's custom ones (one RPC). */
export async function readAttributeStates(client: Client, namespace: string): Promise<AttributeState[]> {
  const { customAttributes } = await client.connection.operatorService.listSearchAttributes({ namespace });
  return SEARCH_ATTRIBUTE_KEYS.map((key) => ({ key, actualType: customAttributes?.[key.name] ?? undefined }));
}

export function describeProblem(a: AttributeState): string {
  return isMissing(a)
    ? `search attribute ${a.key.name} (${typeNameOf(a.key)}) is missing`
    : `search attribute ${a.key.name} is ${indexedValueTypeName(a.actualType!)}, not ${typeNameOf(a.key)}`;
}

export type NamespaceCheck = { ok: true } | { ok: false; problems: string[] };

const GRPC_NOT_FOUND = 5;

/**
 * Whether the namespace exists and has every search attribute the code sets, with its type: describeNamespace and
 * listSearchAttributes, two RPCs. Without them every job start and schedule fails with INVALID_ARGUMENT.
 * Other errors (unreachable server) are thrown.
 */
export async function checkNamespace(client: Client, namespace: string): Promise<NamespaceCheck> {
  try {
    await client.workflowService.describeNamespace({ namespace });
  } catch (err) {
    if ((err as { code?: number }).code === GRPC_NOT_FOUND) return { ok: false, problems: [`the namespace "${namespace}" does not exist`] };
    throw err;
  }
  const problems = (await readAttributeStates(client, namespace)).filter((a) => isMissing(a) || hasWrongType(a)).map(describeProblem);
  return problems.length ? { ok: false, problems } : { ok: true };
}
