/** Every connector this build offers. Adding one: its folder under src/connectors/ and one line here. */
import type { ConnectorDefinition } from '../features/connections/domain/connector-definition';
import { scimConnector } from './scim';
import { sftpConnector } from './sftp';
import { smtpConnector } from './smtp';
import { stripeConnectConnector } from './stripe-connect';

export const CONNECTORS: readonly ConnectorDefinition[] = [smtpConnector, scimConnector, sftpConnector, stripeConnectConnector];
