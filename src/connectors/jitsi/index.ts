/** The `jitsi` connector: meetings on your self-hosted Jitsi Meet with JWT-authenticated rooms. */
import { urlDestination } from '../../features/connections/domain/connection-destinations';
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { isFailure, probe } from '../http-probe/http-probe';
import { JitsiMeetingConnector } from './jitsi-meetings';
import { jitsiCredentials, jitsiSettings, type JitsiCredentials, type JitsiSettings } from './settings';

export const jitsiConnector: ConnectorDefinition<'video_meetings', JitsiSettings, JitsiCredentials> = {
  key: 'jitsi',
  kind: 'video_meetings',
  description: 'Video meetings on your self-hosted Jitsi Meet: a JWT-authenticated room per interview, a link per participant, interviewers as moderators',
  settings: jitsiSettings,
  credentials: jitsiCredentials,
  async test(settings, _credentials, network) {
    // Jitsi Meet serves its client configuration at <base>/config.js; anything else is not a Jitsi Meet.
    const url = `${settings.base_url.replace(/\/+$/, '')}/config.js`;
    const answer = await probe(url, network);
    if (isFailure(answer)) return answer;
    if (answer.status !== 200 || !/\bconfig\s*=|hosts\s*:/.test(answer.body)) {
      return { ok: false, code: 'connection_protocol_error', message: `${url} answered ${answer.status} without a Jitsi Meet configuration` };
    }
    return { ok: true, detail: `${new URL(url).host} serves Jitsi Meet` };
  },
  destinations: (s) => [urlDestination('settings.base_url', s.base_url)],
  open: (settings, credentials) => new JitsiMeetingConnector(settings, credentials),
};
