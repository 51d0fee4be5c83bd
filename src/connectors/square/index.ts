/** The `square` connector: new hires become team members of the restaurant's Square point of sale (Team API: team members, jobs, wage settings). */
import { urlDestination } from '../../features/connections/domain/connection-destinations';
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { isDomainError } from '../../kernel/errors';
import { squareCredentials, squareSettings, type SquareCredentials, type SquareSettings } from './settings';
import { SquareClient } from './square-client';
import { SquareTeamConnector } from './square-team-connector';

export const squareConnector: ConnectorDefinition<'pos', SquareSettings, SquareCredentials> = {
  key: 'square',
  kind: 'pos',
  description: "Team members, jobs and wage settings in the restaurant's Square point of sale (Team API)",
  settings: squareSettings,
  credentials: squareCredentials,
  async test(settings, credentials, network) {
    // GET /v2/team-members/jobs: proves the token and its EMPLOYEES_READ scope, changing nothing.
    try {
      const answer = await new SquareClient(settings, credentials, network).call<{ jobs?: unknown }>('GET', '/v2/team-members/jobs', 'the job list');
      if (answer.jobs !== undefined && !Array.isArray(answer.jobs))
        return { ok: false, code: 'connection_protocol_error', message: `${settings.api_base_url} answered the job list without a jobs array` };
      return { ok: true, detail: 'Square accepted the access token and listed the jobs' };
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const code = error.code === 'counterpart_invalid_response' ? 'connection_protocol_error' : error.code;
      return { ok: false, code, message: error.message };
    }
  },
  destinations: (s) => [urlDestination('settings.api_base_url', s.api_base_url)],
  open: (settings, credentials, context) => new SquareTeamConnector(settings, credentials, context?.network),
};
