import { z } from 'zod';

/** Zod fragments shared by the operation parameter schemas. */
export const id = z.string().min(1);
export const siteId = { site_id: id };
export const paging = { offset: z.coerce.number().int().min(0).optional(), limit: z.coerce.number().int().min(1).max(100).optional() };
/** Checked by the confirm gate (412 confirm_required), not by validation, so the caller gets the coded error. */
export const confirm = { confirm: z.boolean().optional() };
/** Checked by the locale gate (412 secondary_locale_required). */
export const gatedLocale = { localeId: z.string().min(1).optional() };
/** Optional locale on operations that read or write one locale, primary when omitted. */
export const optionalLocale = { localeId: z.string().min(1).optional() };
/** A boolean that may arrive as a query-string "true"/"false" on a GET read (z.coerce would read "false" as true). */
export const queryBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
/** Chooses the beta base for this one request (component_content_get, page_dom_get). */
export const withBindings = { with_bindings: queryBool.optional() };
export const fieldData = z.record(z.string(), z.unknown());
export const jsonLd = z.union([z.record(z.string(), z.unknown()), z.string(), z.null()]);

/**
 * An operation's parameters: a key it does not declare is refused (400 validation_failed naming it), never dropped,
 * so nothing is sent that the caller did not mean. Nested objects are strict too, except the platform bodies that
 * pass through as they are (DOM nodes, component properties, product and SKU bodies).
 */
export const obj = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);
