export { deploymentRoutes } from './routes';
