export { sitePlatformConnectionRoutes } from './routes';
export { resolveCredentials, bustCredentials, type ResolvedCredentials, type ResolutionSource } from './resolve';
export { REQUESTED_SCOPES } from './scopes';
export type { SitePlatformDeps } from './deps';
