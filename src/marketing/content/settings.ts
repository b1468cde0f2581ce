import { readDistributionPlan } from './distributionPlan';

/**
 * The keyword of a row: its own column, or for rows written before 2026-09-12 (column null) the value they kept in
 * settings.target_keyword.
 */
export function keywordOf(row: { target_keyword: string | null; settings: Record<string, unknown> }): string | null {
  if (row.target_keyword !== null) return row.target_keyword;
  const legacy = row.settings?.target_keyword;
  return typeof legacy === 'string' && legacy !== '' ? legacy : null;
}

/** Settings as clients read them: a malformed distribution plan is read as no plan (the key is left out). */
export function readSettings(stored: Record<string, unknown>): Record<string, unknown> {
  const settings = { ...(stored ?? {}) };
  if ('distribution_plan' in settings) {
    const plan = readDistributionPlan(settings.distribution_plan);
    if (plan) settings.distribution_plan = plan;
    else delete settings.distribution_plan;
  }
  return settings;
}

/** Which keyword wins when a write sends both the top-level one and settings.target_keyword. */
export type KeywordPrecedence = 'settings' | 'top_level';

interface KeywordInput {
  target_keyword?: string | null;
  settings?: Record<string, unknown>;
}

/**
 * The keyword after a write.
 * - 'settings' (dashboard PUT): the editor echoes back both copies it loaded, so the one that differs from the stored
 *   keyword is the one the user typed; when both differ, the settings one wins.
 * - 'top_level' (agent PATCH, create): the top-level field wins whenever it is sent.
 * When the write sends neither, the stored keyword stays (for a legacy row, the one it kept in settings).
 */
export function resolveKeyword(
  stored: { target_keyword: string | null; settings: Record<string, unknown> },
  input: KeywordInput,
  precedence: KeywordPrecedence,
): string | null {
  const current = keywordOf(stored);
  const fromSettings =
    input.settings && input.settings.target_keyword !== undefined ? (input.settings.target_keyword as string | null) : undefined;
  const fromTop = input.target_keyword;
  if (precedence === 'top_level') return fromTop !== undefined ? fromTop : fromSettings !== undefined ? fromSettings : current;
  const typed = (v: string | null | undefined): v is string | null => v !== undefined && v !== current;
  if (typed(fromSettings)) return fromSettings;
  if (typed(fromTop)) return fromTop;
  return current;
}

/**
 * Stored settings merged with the ones sent, key by key: a key left out keeps its value, a key sent as null is
 * removed. A distribution plan sent without written_at is stamped with `now`. The keyword mirror is set last so
 * the column and settings.target_keyword always end equal.
 */
export function mergeSettings(
  stored: Record<string, unknown>,
  sent: Record<string, unknown> | undefined,
  keyword: string | null,
  now: Date,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(sent ?? {})) {
    if (value === null || value === undefined) delete merged[key];
    else merged[key] = value;
  }
  const plan = sent?.distribution_plan as Record<string, unknown> | null | undefined;
  if (plan && plan.written_at === undefined) merged.distribution_plan = { ...plan, written_at: now.toISOString() };
  if (keyword === null) delete merged.target_keyword;
  else merged.target_keyword = keyword;
  return merged;
}
