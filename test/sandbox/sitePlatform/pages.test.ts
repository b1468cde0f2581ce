import assert from 'node:assert/strict';
import { world, type World } from './fixtures';

interface Page {
  id: string;
  title: string;
  slug: string;
  localeId: string;
  seo: { title: string; description: string };
  openGraph: { title: string };
}

describe('site platform simulator: pages', () => {
  let w: World;
  beforeEach(async () => {
    w = await world();
  });
  afterEach(() => w.sim.stop());

  it('pages list with pagination and get one', async () => {
    const list = (await (await w.api(`/sites/${w.site.id}/pages?limit=1`)).json()) as { pages: Page[]; pagination: { total: number } };
    assert.equal(list.pages.length, 1);
    assert.equal(list.pagination.total, 2);
    const page = (await (await w.api(`/pages/${list.pages[0].id}`)).json()) as Page;
    assert.equal(page.title, 'Home');
  });

  it('update metadata writes title, slug, seo and openGraph and a later read shows them', async () => {
    const about = [...((await (await w.api(`/sites/${w.site.id}/pages`)).json()) as { pages: Page[] }).pages].find(
      (p) => p.slug === 'about',
    )!;
    const body = { title: 'About us', slug: 'about-us', seo: { description: 'Who we are' }, openGraph: { title: 'About Maple' } };
    const res = await w.api(`/pages/${about.id}`, { method: 'PUT', body });
    assert.equal(res.status, 200);
    const read = (await (await w.api(`/pages/${about.id}`)).json()) as Page;
    assert.deepEqual(
      [read.title, read.slug, read.seo.title, read.seo.description, read.openGraph.title],
      ['About us', 'about-us', 'About', 'Who we are', 'About Maple'],
    );
  });

  it('a secondary-locale write leaves the primary locale untouched; an unknown locale is a validation_error', async () => {
    const fr = w.site.locales.secondary[0].id;
    const about = ((await (await w.api(`/sites/${w.site.id}/pages`)).json()) as { pages: Page[] }).pages[1];
    await w.api(`/pages/${about.id}?localeId=${fr}`, { method: 'PUT', body: { title: 'À propos' } });
    assert.equal(((await (await w.api(`/pages/${about.id}?localeId=${fr}`)).json()) as Page).title, 'À propos');
    assert.equal(((await (await w.api(`/pages/${about.id}`)).json()) as Page).title, 'About');
    const bad = await w.api(`/pages/${about.id}?localeId=nope`);
    assert.equal(((await bad.json()) as { code: string }).code, 'validation_error');
  });

  it('a slug used by a sibling page answers 409 conflict', async () => {
    const pages = ((await (await w.api(`/sites/${w.site.id}/pages`)).json()) as { pages: Page[] }).pages;
    const res = await w.api(`/pages/${pages[1].id}`, { method: 'PUT', body: { slug: '' } });
    assert.equal(res.status, 409);
  });
});
