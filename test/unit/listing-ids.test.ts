import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { isListingId, LISTING_ID_MAX_LENGTH } from '../../src/features/listings/domain/listing-id';
import { attributeProblems } from '../../src/widget/logic';

const widgetAccepts = (listingId: string) => attributeProblems({ organizationId: 'org_abc123', listingId, theme: null, apiBase: null }).length === 0;

describe('listing ids are the host’s', () => {
  it('accepts the shapes hosts use, in the plugin and in the widget alike', () => {
    for (const id of ['6f1c2d3e-aaaa-4bbb-8ccc-123456789abc', '42', 'job-42', 'listing_3mZ8abc', 'ats:tenant@7.job~1', 'x'.repeat(LISTING_ID_MAX_LENGTH)]) {
      assert.equal(isListingId(id), true, id);
      assert.equal(widgetAccepts(id), true, id);
    }
  });

  it('refuses what cannot sit safely in a path segment or a log line, in both places', () => {
    for (const id of ['', 'a b', 'job/42', 'x'.repeat(LISTING_ID_MAX_LENGTH + 1), '<b>', 'é', 'a\nb', '../x?y']) {
      assert.equal(isListingId(id), false, JSON.stringify(id));
      assert.equal(widgetAccepts(id), false, JSON.stringify(id));
    }
    assert.equal(isListingId(undefined), false);
    assert.equal(isListingId(42), false);
  });

  it('the widget and the plugin agree on every string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 140 }), (id) => isListingId(id) === (widgetAccepts(id) && id.trim() !== '')),
      { numRuns: 500 },
    );
  });
});
