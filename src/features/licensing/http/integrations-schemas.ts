import { z } from 'zod';
import { isoDateTime, listOf, moneySchema, nullableDateTime } from '../../../platform/http/common-schemas';
import { billingRulesSchema, quoteSchema } from '../../billing/http/billing-schemas';

export const actionSchema = z.object({
  key: z.string().meta({ example: 'profile.accept_application' }),
  name: z.string(),
  description: z.string(),
  price: moneySchema,
});

export const catalogSchema = z
  .object({
    object: z.literal('catalog'),
    version: z.number().int(),
    platform_fee: moneySchema,
    groups: z.array(
      z.object({
        key: z.string(),
        name: z.string(),
        description: z.string(),
        actions: z.array(
          actionSchema.extend({
            has_hook_handler: z.boolean(),
            hook_handlers: z.array(z.object({ name: z.string(), hook: z.string() })),
            steps: z.array(z.string()).meta({ description: 'Connector kinds its handlers perform steps through (email, sms, …)' }),
            availability: z
              .object({
                status: z.enum(['available', 'requires_connection', 'not_available']),
                missing: z
                  .array(z.string())
                  .meta({ description: 'requires_connection: the connector kinds with no verified connection (or deployment default)' }),
                purchasable: z.boolean().meta({ description: 'false for not_available: activating it (or a package holding it) answers 409' }),
                reason: z
                  .enum(['no_handler', 'connection_missing'])
                  .nullable()
                  .meta({ description: 'Why it is not available: no_handler (this build cannot perform it), connection_missing (see missing)' }),
              })
              .meta({
                description:
                  'For the calling organization (an operator sees the deployment without organization connections): not_available = this build has no handler for the action',
              }),
          }),
        ),
      }),
    ),
    billing_rules: billingRulesSchema,
  })
  .meta({ id: 'Catalog' });

export const packageSchema = z
  .object({
    id: z.string(),
    object: z.literal('package'),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    price: moneySchema,
    actions: z.array(actionSchema),
    status: z.enum(['active', 'archived']),
    created_at: nullableDateTime,
    updated_at: nullableDateTime,
    archived_at: nullableDateTime,
  })
  .meta({ id: 'Package' });

export const licenseSchema = z
  .object({
    id: z.string().meta({ example: 'lic_2bC4dE6fG8hJ0kL2mN4p' }),
    object: z.literal('license'),
    organization_id: z.string(),
    action_key: z.string(),
    source: z.enum(['a_la_carte', 'package']),
    package: z.string().nullable(),
    subscription_id: z.string().nullable(),
    status: z.enum(['requires_connection', 'provisioning', 'active', 'failed', 'deactivated']).meta({
      description: 'requires_connection: bought while a connector its action needs is not connected; not billed until it becomes active',
    }),
    missing_connections: z
      .array(z.string())
      .meta({ description: 'requires_connection: the connector kinds (email, sms, …) still missing a verified connection', example: [] }),
    failure_reason: z.string().nullable(),
    created_at: nullableDateTime,
    activated_at: nullableDateTime,
    failed_at: nullableDateTime,
    deactivated_at: nullableDateTime,
  })
  .meta({
    id: 'License',
    example: {
      id: 'lic_2bC4dE6fG8hJ0kL2mN4p',
      object: 'license',
      organization_id: 'org_5fGh7JkL9mNp2QrS4tUv',
      action_key: 'notifications.interview_reminder',
      source: 'a_la_carte',
      package: null,
      subscription_id: null,
      status: 'provisioning',
      missing_connections: [],
      failure_reason: null,
      created_at: '2026-11-24T09:30:00.000Z',
      activated_at: null,
      failed_at: null,
      deactivated_at: null,
    },
  });

export const subscriptionSchema = z
  .object({
    id: z.string(),
    object: z.literal('subscription'),
    organization_id: z.string(),
    package: z.string(),
    package_id: z.string(),
    price: moneySchema,
    status: z.enum(['provisioning', 'active', 'failed', 'canceled']),
    failure_reason: z.string().nullable(),
    licenses: z.array(licenseSchema),
    created_at: nullableDateTime,
    activated_at: nullableDateTime,
    failed_at: nullableDateTime,
    canceled_at: nullableDateTime,
  })
  .meta({ id: 'Subscription' });

const billSchema = z.object({
  lines: z.array(
    z.object({
      type: z.enum(['platform_fee', 'package', 'action']),
      action_key: z.string().optional(),
      package: z.string().optional(),
      description: z.string(),
      amount: z.number().int(),
      currency: z.string(),
      covered_by: z.string().nullable().optional(),
    }),
  ),
  total: z.number().int(),
  currency: z.string(),
});

export const billingPreviewSchema = z
  .object({
    object: z.literal('billing_preview'),
    currency: z.string(),
    platform_fee: moneySchema,
    current: billSchema,
    proposed_change: z
      .object({ type: z.enum(['activate', 'deactivate', 'subscribe', 'unsubscribe']), action_key: z.string().optional(), package: z.string().optional() })
      .nullable(),
    after: billSchema.nullable(),
    difference: z.number().int().nullable(),
    suggestion: z
      .object({
        package: z.string(),
        name: z.string(),
        price: moneySchema,
        covers: z.array(z.string()),
        total_after: z.number().int(),
        savings: z.number().int(),
      })
      .nullable(),
    quote: quoteSchema.nullable().meta({ description: 'The proposed change as a quote to pass to it (charged exactly this); null without a change' }),
  })
  .meta({ id: 'BillingPreview' });

export const packageSwitchSchema = z
  .object({
    object: z.literal('package_switch'),
    from: subscriptionSchema.meta({ description: 'The canceled subscription' }),
    to: subscriptionSchema.meta({ description: 'The new subscription' }),
  })
  .meta({ id: 'PackageSwitch' });

export const packageListSchema = listOf(packageSchema);
export const licenseListSchema = listOf(licenseSchema);
export const subscriptionListSchema = listOf(subscriptionSchema);
export { isoDateTime };
