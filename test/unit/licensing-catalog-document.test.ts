/** The catalog data file: version 1 as shipped is valid, and malformed documents are refused with a reason. */
import { strict as assert } from 'node:assert';
import { CatalogDocumentError, parseCatalogDocument } from '../../src/features/licensing/domain/catalog-document';
import v1 from '../../src/features/licensing/catalog.v1.json';

const base = () => JSON.parse(JSON.stringify(v1));

describe('licensing: catalog document', () => {
  it('version 1 parses: 13 groups, six packages, the 4900 USD platform fee, prices in integer cents', () => {
    const doc = parseCatalogDocument(v1);
    assert.equal(doc.version, 1);
    assert.equal(doc.groups.length, 13);
    assert.equal(doc.packages.length, 6);
    assert.deepEqual(doc.platform_fee, { amount: 4900, currency: 'USD' });
    for (const a of doc.groups.flatMap((g) => g.actions)) assert.ok(Number.isSafeInteger(a.price.amount), a.key);
  });

  const refusals: [string, (d: any) => void, RegExp][] = [
    ['a float price', (d) => (d.groups[0].actions[0].price.amount = 29.99), /amount/],
    ['an action outside its group', (d) => d.groups[0].actions.push({ ...d.groups[1].actions[0] }), /not in group profile/],
    ['a duplicate action', (d) => d.groups[1].actions.push({ ...d.groups[1].actions[0] }), /listed twice/],
    ['another currency', (d) => (d.groups[0].actions[0].price.currency = 'EUR'), /differs/],
    ['a package naming an unknown action', (d) => d.packages[0].actions.push('sms.nope'), /unknown action sms\.nope/],
    ['a malformed key', (d) => (d.groups[0].actions[0].key = 'Profile.Accept'), /key/],
    ['an unknown field', (d) => (d.extra = 1), /extra|Unrecognized/i],
  ];
  for (const [name, mutate, message] of refusals) {
    it(`refuses ${name}`, () => {
      const doc = base();
      mutate(doc);
      assert.throws(
        () => parseCatalogDocument(doc),
        (e: unknown) => e instanceof CatalogDocumentError && message.test(e.message),
      );
    });
  }
});
