import { z } from 'zod';

/**
 * Optional free text: trimmed; an empty string is read as null (dashboard forms send "" for a blank field),
 * so on create it means absent and on update it clears, like null.
 */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `must be at most ${max} characters` })
    .nullable()
    .transform((v) => (v === '' || v === null ? null : v));

/** Required text: trimmed, 1..max characters. */
export const requiredText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });

/** Strict ISO 8601 timestamp with a time and a zone (`Z` or `±hh:mm`); dates alone or local times are 400. */
export const isoTimestamp = () =>
  z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a time zone, e.g. 2026-12-01T09:00:00Z' })
    .transform((v) => new Date(v));

export const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);
