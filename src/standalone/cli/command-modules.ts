/** Every CLI command module, in help order. Add a module here to add commands (they may extend an existing group). */
import { billingCommands } from './billing-commands';
import { catalogCommands } from './catalog-commands';
import type { CommandModule } from './context';
import { listingCommands } from './listing-commands';
import { organizationCommands } from './organization-commands';
import { serverCommands } from './server-commands';

export const COMMAND_MODULES: readonly CommandModule[] = [serverCommands, organizationCommands, listingCommands, catalogCommands, billingCommands];
