import { z } from 'zod';
import type { ContactRow } from './contactStore';
import { iso } from '../http/fields';

/** A contact as every CRM route returns it (camelCase, as the spec spells `createdAt`). */
export const contactSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    company: z.string().nullable(),
    phone: z.string().nullable(),
    tags: z.array(z.string()),
    notes: z.string().nullable(),
    source: z.string().describe('Who created it: `api` (this API), `commerce` (order ingestion), `form` (site forms) …'),
    createdAt: z.string().describe('ISO 8601'),
    updatedAt: z.string().describe('ISO 8601'),
    commerceTotalSpentCents: z.number().int().describe("Sum of the contact's commerce orders, minor units"),
    commerceOrderCount: z.number().int(),
    commerceFirstOrderAt: z.string().nullable(),
    commerceFirstOrderId: z.string().nullable(),
    commerceLastOrderAt: z.string().nullable(),
  })
  .meta({ id: 'Contact' });

export type ContactJson = z.infer<typeof contactSchema>;

export function toContactJson(row: ContactRow): ContactJson {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    tags: row.tags,
    notes: row.notes,
    source: row.source,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    commerceTotalSpentCents: Number(row.commerce_total_spent_cents),
    commerceOrderCount: row.commerce_order_count,
    commerceFirstOrderAt: iso(row.commerce_first_order_at),
    commerceFirstOrderId: row.commerce_first_order_id,
    commerceLastOrderAt: iso(row.commerce_last_order_at),
  };
}
