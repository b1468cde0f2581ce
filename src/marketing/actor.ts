import { z } from 'zod';
import type { AuthContext } from '../auth/types';

/** Who did something to a content item, as stored on versions, comments and reviews. */
export const actorSchema = z
  .object({
    type: z
      .enum(['user', 'agent', 'system'])
      .describe('`user` for a dashboard session, `agent` for an agent API key, `system` for scheduled jobs.'),
    id: z.string().nullable().describe('The user id or the agent key id; null for `system`.'),
  })
  .meta({ id: 'Actor' });

export type Actor = z.infer<typeof actorSchema>;

export function actorOf(auth: AuthContext): Actor {
  if (auth.kind === 'session') return { type: 'user', id: auth.userId };
  if (auth.kind === 'agent') return { type: 'agent', id: auth.keyId };
  return { type: 'system', id: null };
}
