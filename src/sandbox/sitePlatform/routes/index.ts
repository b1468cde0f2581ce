/** Every Data API route, in match order (specific item paths before the generic item id). */
import type { Route } from '../router';
import { assetRoutes } from './assets';
import { cmsSchemaRoutes } from './cmsSchema';
import { collectionRoutes } from './collections';
import { commentRoutes } from './comments';
import { componentRoutes } from './components';
import { customCodeRoutes } from './customCode';
import { ecommerceRoutes } from './ecommerce';
import { formRoutes } from './forms';
import { googleTagRoutes } from './googleTags';
import { itemRoutes } from './items';
import { itemsBulkRoutes } from './itemsBulk';
import { pageContentRoutes } from './pageContent';
import { pageRoutes } from './pages';
import { publishingRoutes } from './publishing';
import { schemaMarkupRoutes } from './schemaMarkup';
import { siteConfigRoutes } from './siteConfig';
import { siteRoutes } from './sites';
import { tokenRoutes } from './token';
import { webhookRoutes } from './webhooks';

export const dataApiRoutes: Route[] = [
  ...tokenRoutes,
  ...siteRoutes,
  ...collectionRoutes,
  ...cmsSchemaRoutes,
  ...itemsBulkRoutes,
  ...publishingRoutes,
  ...itemRoutes,
  ...pageRoutes,
  ...pageContentRoutes,
  ...schemaMarkupRoutes,
  ...componentRoutes,
  ...customCodeRoutes,
  ...googleTagRoutes,
  ...assetRoutes,
  ...formRoutes,
  ...commentRoutes,
  ...ecommerceRoutes,
  ...siteConfigRoutes,
  ...webhookRoutes,
];
