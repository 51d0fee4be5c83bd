import type { ProfileApplySettings } from '../domain/profile-apply-settings';
import { PROFILE_APPLY_THEMES } from '../domain/profile-apply-settings';
import type { ProfileApplySettingsService } from '../domain/settings-service';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import { organizationSettingsSchema } from '../../organizations/http/organization-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export function settingsView(settings: ProfileApplySettings): z.output<typeof organizationSettingsSchema> {
  return {
    object: 'organization_settings',
    organization_id: settings.organizationId,
    profile_apply: {
      enabled: settings.enabled,
      allowed_origins: settings.allowedOrigins,
      return_urls: settings.returnUrls,
      button_text: settings.buttonText,
      theme: settings.theme,
    },
    updated_at: settings.updatedAt?.toISOString() ?? null,
  };
}

const patchBody = z
  .object({
    profile_apply: z
      .object({
        enabled: z.boolean().optional(),
        allowed_origins: z.array(z.string().max(300)).max(100).optional(),
        return_urls: z.array(z.string().max(2000)).max(100).optional(),
        button_text: z.string().max(200).optional(),
        theme: z.enum(PROFILE_APPLY_THEMES as [string, ...string[]]).optional(),
      })
      .strict(),
  })
  .strict()
  .meta({ example: { profile_apply: { enabled: true, allowed_origins: ['https://jobs.example.com'], button_text: 'Apply with profile', theme: 'light' } } });

/** Mounted at /v1/organization/settings. */
export function settingsRoutes(settings: ProfileApplySettingsService): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'getOrganizationSettings',
      summary: "The calling organization's settings (profile apply)",
      tags: ['organization'],
      auth: ['organization'],
      response: organizationSettingsSchema,
      handler: async ({ principal }) => settingsView(await settings.get(orgId(principal))),
    }),
    defineRoute({
      method: 'patch',
      path: '/',
      operationId: 'updateOrganizationSettings',
      summary: 'Enable profile apply, set the listing page origins allowed to embed it, the button text and theme',
      tags: ['organization'],
      auth: ['organization'],
      body: patchBody,
      response: organizationSettingsSchema,
      handler: async ({ principal, body }) => {
        const change = body.profile_apply;
        const updated = await settings.update(orgId(principal), {
          enabled: change.enabled,
          allowedOrigins: change.allowed_origins,
          returnUrls: change.return_urls,
          buttonText: change.button_text,
          theme: change.theme as ProfileApplySettings['theme'] | undefined,
        });
        return settingsView(updated);
      },
    }),
  ];
}
