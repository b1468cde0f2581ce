export { projectRoutes } from './routes';
