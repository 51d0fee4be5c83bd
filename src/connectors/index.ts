/** Every connector this build offers. Adding one: its folder under src/connectors/ and one line here. */
import type { ConnectorDefinition } from '../features/connections/domain/connector-definition';
import { caldavConnector } from './caldav';
import { checkrConnector } from './checkr';
import { payrollDownloadConnector, posDownloadConnector } from './download';
import { jitsiConnector } from './jitsi';
import { meetingUrlTemplateConnector } from './meeting-url-template';
import { posCsvConnector } from './pos-csv';
import { scimConnector } from './scim';
import { sftpConnector } from './sftp';
import { squareConnector } from './square';
import { smppConnector } from './smpp';
import { smtpConnector } from './smtp';
import { stripeConnectConnector } from './stripe-connect';
import { twilioConnector } from './twilio';

export const CONNECTORS: readonly ConnectorDefinition[] = [
  smtpConnector,
  twilioConnector,
  smppConnector,
  jitsiConnector,
  meetingUrlTemplateConnector,
  caldavConnector,
  scimConnector,
  sftpConnector,
  stripeConnectConnector,
  checkrConnector,
  squareConnector,
  posCsvConnector,
  payrollDownloadConnector,
  posDownloadConnector,
];
