export { sitePlatformOperationRoutes } from './routes';
export { runOperation, operationFor, type OperationRequest, type OperationResult } from './runner';
export { cmsCapabilities, contentSourceOf } from './contentSource';
