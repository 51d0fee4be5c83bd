/**
 * Volunteers (hris.volunteer_management, built in besides its SCIM hook handler): hours logged
 * per volunteer, their corrections and voids (with their history), and their export. The entries hold the volunteer's name and email: registered
 * like candidates' data (matched by email).
 */
import { instanceCachingFactory } from 'tsyringe';
import { CLOCK, type Clock } from '../../kernel/clock';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { ActionRunner } from '../action-runs/domain/action-runner';
import { HookGate } from '../hooks/domain/hook-gate';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { VOLUNTEER_HOURS_REPOSITORY, VolunteerHours, type VolunteerHoursRepository } from './domain/volunteer-hours';
import { volunteerRoutes } from './http/volunteers-router';
import { KnexVolunteerHours } from './storage/knex-volunteer-hours';

export const volunteersModule: PluginModule = {
  name: 'volunteers',
  register(container) {
    const db = container.resolve<Database>(DATABASE);
    container.register(VOLUNTEER_HOURS_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexVolunteerHours(db)) });
    container.register(VolunteerHours, {
      useFactory: instanceCachingFactory(
        (c) =>
          new VolunteerHours(c.resolve<VolunteerHoursRepository>(VOLUNTEER_HOURS_REPOSITORY), c.resolve(ActionRunner), c.resolve(HookGate), () =>
            c.resolve<Clock>(CLOCK).now(),
          ),
      ),
    });
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'volunteer_hours',
          description: "Hours a volunteer served (day, minutes, school, activity) with the volunteer's name and email, matched by email",
          table: 'hi_volunteer_hours',
          where: (q, s) => q.where({ organization_id: s.organizationId }).whereIn('volunteer_email', [...s.emails]),
        }),
      ),
    );
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'volunteer_hour_changes',
          description: "Corrections and voids of a volunteer's hours (reason, the values before and after), found through the entry's volunteer email",
          table: 'hi_volunteer_hour_changes',
          where: (q, s) =>
            q.where({ organization_id: s.organizationId }).whereIn(
              'entry_id',
              db('hi_volunteer_hours')
                .select('id')
                .where({ organization_id: s.organizationId })
                .whereIn('volunteer_email', [...s.emails]),
            ),
        }),
      ),
    );
  },
  routers: [{ name: 'volunteers', create: (container, kit) => kit.build('volunteers', volunteerRoutes(container.resolve(VolunteerHours))) }],
};
