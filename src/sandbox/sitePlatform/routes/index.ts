/** Every Data API route, in match order (specific item paths before the generic item id). */
import type { Route } from '../router';
import { collectionRoutes } from './collections';
import { itemRoutes } from './items';
import { pageRoutes } from './pages';
import { publishingRoutes } from './publishing';
import { siteRoutes } from './sites';
import { tokenRoutes } from './token';

export const dataApiRoutes: Route[] = [
  ...tokenRoutes, ...siteRoutes, ...collectionRoutes, ...publishingRoutes, ...itemRoutes, ...pageRoutes,
];
