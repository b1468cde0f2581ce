/**
 * Products and custom collections: seeded on every new shop, listed by the Admin API, changed by the test, and
 * turned into the payloads of products/create|update|delete and collections/update deliveries.
 */
import { json, type SimRequest, type SimResponse } from './http';
import { paginate, pickFields, readPageQuery } from './pagination';
import {
  API_VERSION,
  gid,
  isoSeconds,
  sameId,
  shopOrThrow,
  type ShopState,
  type SimCollection,
  type SimProduct,
  type SimState,
} from './state';

const SEED_PRODUCTS: Array<[title: string, type: string, price: string]> = [
  ['Merino Beanie', 'Hats', '28.00'],
  ['Canvas Tote — Natural', 'Bags', '19.50'],
  ['Enamel Mug 12 oz', 'Kitchen', '14.00'],
  ['Field Notebook (3-pack)', 'Stationery', '12.34'],
];
const SEED_COLLECTIONS = ['Best sellers', 'Gifts under $30'];

const handleOf = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function newProduct(state: SimState, input: Partial<SimProduct> & { title: string; price?: string }): SimProduct {
  const id = input.id ?? state.nextId();
  const variantId = state.nextId();
  const at = isoSeconds(Date.now());
  const { price = '10.00', ...rest } = input;
  return {
    id,
    admin_graphql_api_id: gid('Product', id),
    body_html: `<p>${input.title}</p>`,
    vendor: 'Workyard Test Goods',
    product_type: '',
    handle: handleOf(input.title),
    status: 'active',
    tags: '',
    published_scope: 'web',
    published_at: at,
    created_at: at,
    updated_at: at,
    variants: [
      {
        id: variantId,
        admin_graphql_api_id: gid('ProductVariant', variantId),
        product_id: id,
        title: 'Default Title',
        price,
        compare_at_price: null,
        sku: `SKU-${String(id).slice(-5)}`,
        position: 1,
        inventory_policy: 'deny',
        inventory_quantity: 25,
        taxable: true,
        option1: 'Default Title',
        created_at: at,
        updated_at: at,
      },
    ],
    options: [{ id: state.nextId(), product_id: id, name: 'Title', position: 1, values: ['Default Title'] }],
    images: [],
    image: null,
    ...rest,
  };
}

export function newCollection(state: SimState, input: Partial<SimCollection> & { title: string }): SimCollection {
  const id = input.id ?? state.nextId();
  return {
    id,
    admin_graphql_api_id: gid('Collection', id),
    handle: handleOf(input.title),
    body_html: '',
    sort_order: 'best-selling',
    template_suffix: null,
    published_scope: 'web',
    published_at: isoSeconds(Date.now()),
    updated_at: isoSeconds(Date.now()),
    ...input,
  };
}

export function seedCatalog(state: SimState, shop: ShopState): void {
  shop.products = SEED_PRODUCTS.map(([title, product_type, price]) => newProduct(state, { title, product_type, price }));
  shop.collections = SEED_COLLECTIONS.map((title) => newCollection(state, { title }));
}

function listing<T extends { id: number }>(shop: ShopState, req: SimRequest, key: string, rows: T[]): SimResponse {
  const q = readPageQuery(req.query);
  if ('status' in q) return q;
  const pageUrl = (pageInfo: string) =>
    `${req.baseUrl}/${shop.info.myshopify_domain}/admin/api/${API_VERSION}/${key}.json?limit=${q.limit}&page_info=${pageInfo}`;
  const page = paginate(rows, (r) => [r.id, 0], q, pageUrl);
  const fields = req.query.get('fields');
  return json(200, { [key]: page.rows.map((r) => pickFields(r, fields)) }, page.link ? { link: page.link } : undefined);
}

export const listProducts = (shop: ShopState, req: SimRequest) => listing(shop, req, 'products', shop.products);
export const listCollections = (shop: ShopState, req: SimRequest) => listing(shop, req, 'custom_collections', shop.collections);

/** What tests use to change the catalog and build the matching delivery payloads. */
export interface CatalogControl {
  products(domain: string): SimProduct[];
  collections(domain: string): SimCollection[];
  addProduct(domain: string, product: Partial<SimProduct> & { title: string; price?: string }): SimProduct;
  updateProduct(domain: string, id: number | string, patch: Partial<SimProduct>): SimProduct;
  removeProduct(domain: string, id: number | string): void;
  updateCollection(domain: string, id: number | string, patch: Partial<SimCollection>): SimCollection;
  /** The payload the platform sends for the topic: the full record, or `{ id }` for products/delete. */
  payload(
    domain: string,
    topic: 'products/create' | 'products/update' | 'products/delete' | 'collections/update',
    id: number | string,
  ): unknown;
}

export function catalogControl(state: SimState): CatalogControl {
  const find = <T extends { id: number }>(rows: T[], id: number | string, what: string): T => {
    const row = rows.find((r) => sameId(r.id, id));
    if (!row) throw new Error(`commerce simulator: unknown ${what} ${id}`);
    return row;
  };
  return {
    products: (domain) => structuredClone(shopOrThrow(state, domain).products),
    collections: (domain) => structuredClone(shopOrThrow(state, domain).collections),
    addProduct(domain, product) {
      const created = newProduct(state, product);
      shopOrThrow(state, domain).products.push(created);
      return structuredClone(created);
    },
    updateProduct(domain, id, patch) {
      const product = find(shopOrThrow(state, domain).products, id, 'product');
      Object.assign(product, patch, { id: product.id, updated_at: patch.updated_at ?? isoSeconds(Date.now()) });
      return structuredClone(product);
    },
    removeProduct(domain, id) {
      const shop = shopOrThrow(state, domain);
      shop.products = shop.products.filter((p) => p.id !== find(shop.products, id, 'product').id);
    },
    updateCollection(domain, id, patch) {
      const collection = find(shopOrThrow(state, domain).collections, id, 'collection');
      Object.assign(collection, patch, { id: collection.id, updated_at: patch.updated_at ?? isoSeconds(Date.now()) });
      return structuredClone(collection);
    },
    payload(domain, topic, id) {
      const shop = shopOrThrow(state, domain);
      if (topic === 'products/delete') return { id: Number(id) };
      if (topic === 'collections/update') return structuredClone(find(shop.collections, id, 'collection'));
      return structuredClone(find(shop.products, id, 'product'));
    },
  };
}
