/** Pricing arithmetic, pure: integer minor units, the platform fee, no double charge, proposals, suggestions. */
import { strict as assert } from 'node:assert';
import { isActionKey, isPackageSlug, requireActionKey } from '../../src/features/licensing/domain/action-key';
import type { HeldAction, HeldPackage, Holdings } from '../../src/features/billing/domain/holdings';
import { add, money, sum } from '../../src/kernel/money';
import { monthlyBill } from '../../src/features/billing/domain/monthly-bill';
import { suggestPackage } from '../../src/features/billing/domain/package-suggestion';
import { applyChange } from '../../src/features/billing/domain/proposed-change';
import { isDomainError } from '../../src/kernel/errors';

const USD = (amount: number) => money(amount, 'USD');
const FEE = USD(4900);
const action = (key: string, amount: number): HeldAction => ({ key, name: key, price: USD(amount) });
const pkg = (slug: string, amount: number, actionKeys: string[]): HeldPackage => ({ slug, name: slug, price: USD(amount), actionKeys });
const A = action('a.one', 1900);
const B = action('b.two', 2900);
const C = action('c.three', 900);
const AB = pkg('ab-pack', 3500, ['a.one', 'b.two']);
const ABC = pkg('abc-pack', 4000, ['a.one', 'b.two', 'c.three']);
const hold = (aLaCarte: HeldAction[], packages: HeldPackage[] = []): Holdings => ({ aLaCarte, packages });

describe('licensing: money', () => {
  it('is integer minor units with a currency; floats, negatives and mixed currencies are refused', () => {
    assert.deepEqual(add(USD(1), USD(2)), USD(3));
    assert.deepEqual(sum([USD(4900), USD(1900), USD(1)], 'USD'), USD(6801));
    assert.throws(() => money(19.99, 'USD'), RangeError);
    assert.throws(() => money(-1, 'USD'), RangeError);
    assert.throws(() => money(1, 'usd'), RangeError);
    assert.throws(() => add(USD(1), money(1, 'EUR')), RangeError);
  });
});

describe('licensing: keys', () => {
  it('accepts <group>.<action> in lower snake case only', () => {
    for (const ok of ['profile.accept_application', 'sms.two_factor_auth', 'a1.b2']) assert.ok(isActionKey(ok), ok);
    for (const bad of ['Profile.accept', 'profile', 'profile.', '.accept', 'a.b.c', 'a-b.c', 'a.b-c', 'a._b', 'a.b_', '1a.b', `${'a'.repeat(100)}.b`])
      assert.ok(!isActionKey(bad), bad);
    assert.throws(
      () => requireActionKey('NOPE', 'activate'),
      (e: unknown) => isDomainError(e) && e.code === 'invalid_action_key' && e.details.param === 'activate',
    );
    assert.ok(isPackageSlug('temp-agencies') && !isPackageSlug('temp_agencies') && !isPackageSlug('-x') && !isPackageSlug('Temp'));
  });
});

describe('licensing: monthly bill', () => {
  it('nothing held costs nothing, with no platform fee', () => {
    assert.deepEqual(monthlyBill(hold([]), FEE), { lines: [], total: USD(0) });
  });

  it('à la carte: the platform fee once plus every action', () => {
    const bill = monthlyBill(hold([B, A]), FEE);
    assert.deepEqual(
      bill.lines.map((l) => [l.type, l.amount.amount]),
      [
        ['platform_fee', 4900],
        ['action', 1900],
        ['action', 2900],
      ],
    );
    assert.deepEqual(bill.total, USD(4900 + 1900 + 2900));
  });

  it('the same action listed twice is charged once', () => {
    assert.deepEqual(monthlyBill(hold([A, A]), FEE).total, USD(4900 + 1900));
  });

  it('a package alone: its one price, no platform fee', () => {
    const bill = monthlyBill(hold([], [AB]), FEE);
    assert.deepEqual(
      bill.lines.map((l) => l.type),
      ['package'],
    );
    assert.deepEqual(bill.total, USD(3500));
  });

  it('mixed: a covered action shows 0 and its package; an uncovered one brings the fee', () => {
    const covered = monthlyBill(hold([A], [AB]), FEE);
    assert.deepEqual(covered.total, USD(3500));
    const line = covered.lines.find((l) => l.type === 'action');
    assert.ok(line && line.type === 'action' && line.coveredBy === 'ab-pack' && line.amount.amount === 0);

    const mixed = monthlyBill(hold([A, C], [AB]), FEE);
    assert.deepEqual(mixed.total, USD(3500 + 4900 + 900));
  });

  it('an action in two held packages is paid through the packages only', () => {
    const bill = monthlyBill(hold([A], [AB, ABC]), FEE);
    assert.deepEqual(bill.total, USD(3500 + 4000));
    const line = bill.lines.find((l) => l.type === 'action');
    assert.equal(line?.type === 'action' && line.coveredBy, 'ab-pack');
  });

  it('never produces a float: every line and the total are safe integers', () => {
    const bill = monthlyBill(hold([A, B, C], [AB]), FEE);
    for (const l of bill.lines) assert.ok(Number.isSafeInteger(l.amount.amount));
    assert.ok(Number.isSafeInteger(bill.total.amount));
  });
});

describe('licensing: proposed changes', () => {
  it('activate adds (idempotently), deactivate removes, subscribe adds a package, unsubscribe removes it', () => {
    assert.deepEqual(applyChange(hold([A]), { type: 'activate', action: B }).aLaCarte, [A, B]);
    assert.deepEqual(applyChange(hold([A]), { type: 'activate', action: A }).aLaCarte, [A]);
    assert.deepEqual(applyChange(hold([A, B]), { type: 'deactivate', actionKey: 'a.one' }).aLaCarte, [B]);
    assert.deepEqual(applyChange(hold([]), { type: 'subscribe', package: AB }).packages, [AB]);
    assert.deepEqual(applyChange(hold([], [AB]), { type: 'unsubscribe', packageSlug: 'ab-pack' }).packages, []);
  });

  it('refuses to remove what is not held', () => {
    assert.throws(
      () => applyChange(hold([]), { type: 'deactivate', actionKey: 'a.one' }),
      (e: unknown) => isDomainError(e) && e.code === 'invalid_proposed_change',
    );
    assert.throws(
      () => applyChange(hold([]), { type: 'unsubscribe', packageSlug: 'ab-pack' }),
      (e: unknown) => isDomainError(e) && e.code === 'invalid_proposed_change',
    );
  });
});

describe('licensing: cheapest covering package', () => {
  it('suggests the package that makes the bill lowest, with what it covers and the savings', () => {
    // Now: 4900 + 1900 + 2900 + 900 = 10600. With ab-pack: 3500 + 4900 + 900 = 9300. With abc-pack: 4000.
    const s = suggestPackage(hold([A, B, C]), [AB, ABC], FEE);
    assert.equal(s?.package.slug, 'abc-pack');
    assert.deepEqual(s?.covers, ['a.one', 'b.two', 'c.three']);
    assert.deepEqual(s?.totalAfter, USD(4000));
    assert.equal(s?.savings, 6600);
  });

  it('suggests nothing when no package is cheaper, none covers anything, or it is already held', () => {
    assert.equal(suggestPackage(hold([C]), [pkg('pricey', 9000, ['c.three'])], FEE), null);
    assert.equal(suggestPackage(hold([C]), [AB], FEE), null);
    assert.equal(suggestPackage(hold([A, B], [AB]), [AB], FEE), null);
    assert.equal(suggestPackage(hold([]), [AB, ABC], FEE), null);
  });

  it('breaks ties by the cheaper package, then by slug', () => {
    const x = pkg('x-pack', 3000, ['a.one', 'b.two']);
    const y = pkg('y-pack', 3000, ['a.one', 'b.two']);
    assert.equal(suggestPackage(hold([A, B]), [y, x], FEE)?.package.slug, 'x-pack');
  });
});
