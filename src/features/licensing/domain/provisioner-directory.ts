/** Which provisioner serves an action group: a registered one, else the default (the sandbox). */
import type { Provisioner, ProvisionerDirectory } from './provisioner';

export class MappedProvisionerDirectory implements ProvisionerDirectory {
  constructor(
    private readonly byGroup: ReadonlyMap<string, Provisioner>,
    private readonly fallback: Provisioner,
  ) {}

  forGroup(groupKey: string): Provisioner {
    return this.byGroup.get(groupKey) ?? this.fallback;
  }
}
