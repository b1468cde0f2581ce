import type { AuthContext } from '../auth/types';

/** Who did something to a content item, as stored on versions, comments and reviews. */
export interface Actor {
  type: 'user' | 'agent' | 'system';
  id: string | null;
}

export function actorOf(auth: AuthContext): Actor {
  if (auth.kind === 'session') return { type: 'user', id: auth.userId };
  if (auth.kind === 'agent') return { type: 'agent', id: auth.keyId };
  return { type: 'system', id: null };
}
