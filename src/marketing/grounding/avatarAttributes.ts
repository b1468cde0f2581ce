import { z } from 'zod';

export const MAX_ATTRIBUTE_KEYS = 30;
export const MAX_ATTRIBUTE_KEY_LENGTH = 64;
export const MAX_ATTRIBUTES_BYTES = 16_384;
export const MAX_LIST_ITEMS = 50;

const statement = z.string().trim().min(1, { error: 'must not be empty' }).max(500, { error: 'must be at most 500 characters' });
const statements = z.array(statement).max(MAX_LIST_ITEMS, { error: `must have at most ${MAX_LIST_ITEMS} items` });

const scalar = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()], {
  error: 'must be a string (at most 2000 characters), number, boolean or null, or a list of those',
});
const value = z.union([scalar, z.array(scalar).max(MAX_LIST_ITEMS)], {
  error: `must be a string (at most 2000 characters), number, boolean or null, or a list of at most ${MAX_LIST_ITEMS} of those`,
});

/**
 * Persona detail of a customer avatar. Known keys are typed (`role` a string, `goals`, `pains`, `objections`,
 * `channels` lists of statements); any other key holds a scalar or a flat list of scalars. Nested objects are
 * refused so every reader (prompts, proof pack, research) can print the attributes without guessing their shape.
 */
export const avatarAttributes = z
  .object({
    role: z
      .string()
      .trim()
      .max(255, { error: 'must be at most 255 characters' })
      .optional()
      .describe('Job title or situation, e.g. "Owner of a 5-person plumbing firm".'),
    goals: statements.optional(),
    pains: statements.optional(),
    objections: statements.optional(),
    channels: statements.optional(),
  })
  .catchall(value)
  .superRefine((attrs, ctx) => {
    const keys = Object.keys(attrs);
    if (keys.length > MAX_ATTRIBUTE_KEYS) ctx.addIssue({ code: 'custom', message: `must have at most ${MAX_ATTRIBUTE_KEYS} keys` });
    for (const key of keys) {
      if (key.length === 0 || key.length > MAX_ATTRIBUTE_KEY_LENGTH) {
        ctx.addIssue({ code: 'custom', path: [key], message: `keys must be 1 to ${MAX_ATTRIBUTE_KEY_LENGTH} characters` });
      }
    }
    if (Buffer.byteLength(JSON.stringify(attrs)) > MAX_ATTRIBUTES_BYTES) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_ATTRIBUTES_BYTES} bytes as JSON` });
    }
  })
  .describe(
    `Free-form persona detail as a flat JSON object: \`role\` (string), \`goals\`, \`pains\`, \`objections\`, \`channels\` ` +
      `(lists of statements, each 1..500 characters, at most ${MAX_LIST_ITEMS}), and any other key (1..${MAX_ATTRIBUTE_KEY_LENGTH} characters) ` +
      `holding a string (at most 2000 characters), number, boolean, null or a list of at most ${MAX_LIST_ITEMS} of those. ` +
      `At most ${MAX_ATTRIBUTE_KEYS} keys and ${MAX_ATTRIBUTES_BYTES} bytes as JSON; nested objects are 400.`,
  );

export type AvatarAttributes = Record<string, unknown>;
