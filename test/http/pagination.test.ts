import assert from 'node:assert/strict';
import { z } from 'zod';
import { lenientPageQuery, listEnvelope, listEnvelopeSchema, offsetOf, strictPageQuery } from '../../src/http/pagination';

describe('pagination kit', () => {
  it("strict page and limit: defaults, a list's own maximum, anything out of range is refused", () => {
    const query = z.strictObject(strictPageQuery({ defaultLimit: 10, maxLimit: 50 }));
    assert.deepEqual(query.parse({}), { page: 1, limit: 10 });
    assert.deepEqual(query.parse({ page: '3', limit: '50' }), { page: 3, limit: 50 });
    for (const bad of [{ limit: '51' }, { page: '0' }, { limit: 'abc' }, { page: '10001' }, { page: '' }])
      assert.equal(query.safeParse(bad).success, false, JSON.stringify(bad));
  });

  it('lenient page and limit: zero, negative or empty is the default, above the maximum is the maximum', () => {
    const query = z.strictObject(lenientPageQuery({ defaultLimit: 20, maxLimit: 100 }));
    assert.deepEqual(query.parse({ page: '0', limit: '-5' }), { page: 1, limit: 20 });
    assert.deepEqual(query.parse({ page: '', limit: '500' }), { page: 1, limit: 100 });
    for (const bad of [{ limit: '1.5' }, { page: 'x' }, { page: '10001' }])
      assert.equal(query.safeParse(bad).success, false, JSON.stringify(bad));
  });

  it("the list envelope carries the rows under data, or under the key a list's spec names", () => {
    assert.equal(offsetOf({ page: 3, limit: 25 }), 50);
    assert.deepEqual(listEnvelope(['a'], 7, { page: 2, limit: 1 }), { data: ['a'], total: 7, page: 2, limit: 1 });
    const contacts = listEnvelope([{ id: 1 }], 1, { page: 1, limit: 25 }, 'contacts');
    assert.deepEqual(Object.keys(contacts), ['contacts', 'total', 'page', 'limit']);
    assert.equal(listEnvelopeSchema(z.string(), 'contacts').safeParse(contacts).success, false);
    assert.equal(listEnvelopeSchema(z.object({ id: z.number() }), 'contacts').safeParse(contacts).success, true);
  });
});
