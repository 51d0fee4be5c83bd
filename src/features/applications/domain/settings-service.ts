import { inject, injectable } from 'tsyringe';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../../organizations/domain/ports';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { notFound } from '../../../kernel/errors';
import {
  applyChange,
  defaultSettings,
  ORIGIN_POLICY,
  PROFILE_APPLY_SETTINGS_REPOSITORY,
  type OriginPolicy,
  type ProfileApplySettings,
  type ProfileApplySettingsChange,
  type ProfileApplySettingsRepository,
} from './profile-apply-settings';

@injectable()
export class ProfileApplySettingsService {
  constructor(
    @inject(PROFILE_APPLY_SETTINGS_REPOSITORY) private readonly repository: ProfileApplySettingsRepository,
    @inject(ORGANIZATION_REPOSITORY) private readonly organizations: OrganizationRepository,
    @inject(ORIGIN_POLICY) private readonly originPolicy: OriginPolicy,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Settings of an organization, defaults when it never saved any; undefined when it does not exist. */
  async find(organizationId: string): Promise<ProfileApplySettings | undefined> {
    const saved = await this.repository.find(organizationId);
    if (saved) return saved;
    return (await this.organizations.findById(organizationId)) ? defaultSettings(organizationId) : undefined;
  }

  async get(organizationId: string): Promise<ProfileApplySettings> {
    const settings = await this.find(organizationId);
    if (!settings) throw notFound('organization', organizationId);
    return settings;
  }

  async update(organizationId: string, change: ProfileApplySettingsChange): Promise<ProfileApplySettings> {
    const next = applyChange(await this.get(organizationId), change, this.originPolicy, this.clock.now());
    await this.repository.save(next);
    return next;
  }
}
