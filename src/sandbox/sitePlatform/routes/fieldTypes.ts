/**
 * CMS field types as the platform's reference names them. Every type can be read (`ExtFileRef` included); a client
 * creates the thirteen static types, `Option` (with its options) and `Reference`/`MultiReference` (with the target
 * collection). There is no `Video`: the video field is `VideoLink`.
 */
import { z } from 'zod';
import type { SimField } from '../state';

export const STATIC_FIELD_TYPES = [
  'Color',
  'DateTime',
  'Email',
  'File',
  'Image',
  'Link',
  'MultiImage',
  'Number',
  'Phone',
  'PlainText',
  'RichText',
  'Switch',
  'VideoLink',
] as const;

const common = {
  displayName: z.string().min(1),
  helpText: z.string().optional(),
  isRequired: z.boolean().default(false),
  isEditable: z.boolean().optional(),
  id: z.string().optional(),
};

export const fieldCreateBody = z.discriminatedUnion('type', [
  z.object({ ...common, type: z.enum(STATIC_FIELD_TYPES) }),
  z.object({
    ...common,
    type: z.literal('Option'),
    metadata: z.object({ options: z.array(z.object({ name: z.string().min(1), id: z.string().optional() })).min(1) }),
  }),
  z.object({ ...common, type: z.enum(['Reference', 'MultiReference']), metadata: z.object({ collectionId: z.string().min(1) }) }),
]);

export type FieldCreateBody = z.infer<typeof fieldCreateBody>;

/** The field as the create-field call answers it: no slug, and the metadata an Option or Reference field was given. */
export function createdFieldView(field: SimField, body: FieldCreateBody): Record<string, unknown> {
  const { slug: _slug, ...rest } = field;
  return 'metadata' in body ? { ...rest, metadata: structuredClone(body.metadata) } : rest;
}
