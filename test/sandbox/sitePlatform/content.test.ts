import assert from 'node:assert/strict';
import { extendedWorld, type ExtendedWorld } from './extended';

interface Nodes {
  nodes: Array<{ id: string; text: { text: string } }>;
}
interface Page {
  id: string;
}

describe('site platform simulator: page and component body content', () => {
  let w: ExtendedWorld;
  let page: Page;
  beforeEach(async () => {
    w = await extendedWorld();
    page = ((await (await w.api(`/sites/${w.site.id}/pages`)).json()) as { pages: Page[] }).pages[1];
  });
  afterEach(() => w.sim.stop());

  it('a primary-locale DOM write is refused; a secondary-locale write changes that locale only', async () => {
    const dom = (await (await w.api(`/pages/${page.id}/dom`)).json()) as Nodes;
    const nodeId = dom.nodes[0].id;
    const primary = await w.api(`/pages/${page.id}/dom`, { method: 'POST', body: { nodes: [{ nodeId, text: 'Hello' }] } });
    assert.equal(primary.status, 400);
    assert.equal(((await primary.json()) as { details: Array<{ param: string }> }).details[0].param, 'localeId');
    const fr = w.site.locales.secondary[0].id;
    const ok = await w.api(`/pages/${page.id}/dom?localeId=${fr}`, { method: 'POST', body: { nodes: [{ nodeId, text: 'Bonjour' }] } });
    assert.deepEqual(await ok.json(), { errors: [] });
    assert.equal(((await (await w.api(`/pages/${page.id}/dom?localeId=${fr}`)).json()) as Nodes).nodes[0].text.text, 'Bonjour');
    assert.equal(((await (await w.api(`/pages/${page.id}/dom`)).json()) as Nodes).nodes[0].text.text, 'About');
  });

  it('component properties write in a secondary locale; the primary locale is refused', async () => {
    const hero = w.sim.addComponent(w.site.id, { name: 'Hero', properties: { Heading: 'Welcome' } });
    const props = (await (await w.api(`/sites/${w.site.id}/components/${hero.id}/properties`)).json()) as {
      properties: Array<{ propertyId: string }>;
    };
    const propertyId = props.properties[0].propertyId;
    const body = { properties: [{ propertyId, text: 'Bienvenue' }] };
    assert.equal((await w.api(`/sites/${w.site.id}/components/${hero.id}/properties`, { method: 'POST', body })).status, 400);
    const fr = w.site.locales.secondary[0].id;
    assert.equal(
      (await w.api(`/sites/${w.site.id}/components/${hero.id}/properties?localeId=${fr}`, { method: 'POST', body })).status,
      200,
    );
    const read = (await (await w.api(`/sites/${w.site.id}/components/${hero.id}/properties?localeId=${fr}`)).json()) as {
      properties: Array<{ text: { text: string } }>;
    };
    assert.equal(read.properties[0].text.text, 'Bienvenue');
  });

  it('JSON-LD schema markup is written and read on the beta base', async () => {
    const schema = { '@type': 'Organization', name: 'Maple' };
    assert.equal((await w.call('beta', `/pages/${page.id}/schema-markup`, { method: 'PUT', body: { jsonLdSchema: schema } })).status, 200);
    const bulk = await w.call('beta', `/sites/${w.site.id}/pages/schema-markup/query`, {
      method: 'POST',
      body: { pages: [{ id: page.id }] },
    });
    assert.deepEqual(await bulk.json(), {
      pages: [{ id: page.id, localeId: w.site.locales.primary.id, jsonLdSchema: schema, isInherited: false }],
    });
  });
});
