/**
 * GET /v1/integrations/billing/preview: the organization's monthly bill now, after one
 * proposed change, and the cheapest package that would cover its actions for less.
 * Live licenses and subscriptions count (provisioning ones too: they are being bought);
 * a subscription is billed at the price it was taken at.
 */
import { inject, injectable } from 'tsyringe';
import { CATALOG_REPOSITORY, type CatalogRepository } from '../../licensing/domain/catalog';
import { CatalogService } from '../../licensing/domain/catalog-service';
import { PackageService } from '../../licensing/domain/package-service';
import { LICENSE_REPOSITORY, SUBSCRIPTION_REPOSITORY, type LicenseRepository, type SubscriptionRepository } from '../../licensing/domain/ports';
import { conflict } from '../../../kernel/errors';
import type { HeldPackage, Holdings } from './holdings';
import type { Money } from '../../../kernel/money';
import { monthlyBill, type MonthlyBill } from './monthly-bill';
import { suggestPackage, type PackageSuggestion } from './package-suggestion';
import { applyChange, type ProposedChange } from './proposed-change';

export type ChangeRequest = { type: 'activate' | 'deactivate'; actionKey: string } | { type: 'subscribe' | 'unsubscribe'; packageSlug: string };

export interface BillingPreview {
  platformFee: Money;
  current: MonthlyBill;
  change: ChangeRequest | null;
  after: MonthlyBill | null;
  suggestion: PackageSuggestion | null;
}

@injectable()
export class BillingPreviewService {
  constructor(
    @inject(LICENSE_REPOSITORY) private readonly licenses: LicenseRepository,
    @inject(SUBSCRIPTION_REPOSITORY) private readonly subscriptions: SubscriptionRepository,
    @inject(CATALOG_REPOSITORY) private readonly catalog: CatalogRepository,
    @inject(CatalogService) private readonly catalogService: CatalogService,
    @inject(PackageService) private readonly packages: PackageService,
  ) {}

  async preview(organizationId: string, request: ChangeRequest | null): Promise<BillingPreview> {
    const platformFee = await this.catalog.platformFee();
    const holdings = await this.holdings(organizationId);
    const change = request ? await this.resolve(request, param(request)) : null;
    const current = monthlyBill(holdings, platformFee);
    const projected = change ? applyChange(holdings, change) : holdings;
    const available = (await this.packages.list(false)).map(held);
    return {
      platformFee,
      current,
      change: request,
      after: change ? monthlyBill(projected, platformFee) : null,
      suggestion: suggestPackage(projected, available, platformFee),
    };
  }

  private async holdings(organizationId: string): Promise<Holdings> {
    const live = await this.licenses.listLive(organizationId);
    const keys = [...new Set(live.filter((l) => l.source.type === 'a_la_carte').map((l) => l.actionKey))];
    const actions = await this.catalog.actions(keys);
    const subscriptions = await this.subscriptions.list(organizationId);
    const names = new Map((await this.packages.list(true)).map((p) => [p.id, p.name]));
    return {
      aLaCarte: actions.map((a) => ({ key: a.key, name: a.name, price: a.price })),
      packages: subscriptions
        .filter((s) => s.subscription.status === 'provisioning' || s.subscription.status === 'active')
        .map(({ subscription, licenses }) => ({
          slug: subscription.packageSlug,
          name: names.get(subscription.packageId) ?? subscription.packageSlug,
          price: subscription.price,
          actionKeys: licenses.map((l) => l.actionKey),
        })),
    };
  }

  async resolve(request: ChangeRequest, name: string): Promise<ProposedChange> {
    switch (request.type) {
      case 'activate': {
        const action = await this.catalogService.requireAction(request.actionKey, name);
        return { type: 'activate', action: { key: action.key, name: action.name, price: action.price } };
      }
      case 'deactivate':
        await this.catalogService.requireAction(request.actionKey, name);
        return { type: 'deactivate', actionKey: request.actionKey };
      case 'subscribe': {
        const pkg = await this.packages.get(request.packageSlug);
        if (pkg.status === 'archived') throw conflict('package_archived', `The package '${pkg.slug}' is archived and takes no new subscriptions`);
        return { type: 'subscribe', package: held(pkg) };
      }
      case 'unsubscribe':
        await this.packages.get(request.packageSlug);
        return { type: 'unsubscribe', packageSlug: request.packageSlug };
    }
  }
}

const param = (request: ChangeRequest): string => request.type;

const held = (pkg: { slug: string; name: string; price: Money; actions: { key: string }[] }): HeldPackage => ({
  slug: pkg.slug,
  name: pkg.name,
  price: pkg.price,
  actionKeys: pkg.actions.map((a) => a.key),
});
