import type { RouteDef } from '../http/route';
import { artifactReadRoutes } from './artifactRoutes';
import { knowledgeBaseRoutes } from './knowledgeBaseRoutes';

/**
 * Knowledge-base routes (agent keys: reads need marketing.content:read, writes marketing.content:create).
 * Artifact routes come first: `/knowledge-bases/artifacts/{artifactId}` and `/knowledge-bases/{kbId}/search` both
 * have one parameter, and the router takes the first registered match.
 */
export function knowledgeRoutes(): RouteDef[] {
  return [...artifactReadRoutes(), ...knowledgeBaseRoutes()];
}
