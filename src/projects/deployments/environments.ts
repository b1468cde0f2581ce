/** Where a service-hosted project is deployed; one deployment per environment. */
export const ENVIRONMENTS = ['production', 'staging', 'dev'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];
