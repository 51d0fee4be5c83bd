/**
 * What one connector module declares (src/connectors/<name>/): its settings and
 * credentials schemas (zod: validation and OpenAPI), the port it fills, a test that makes
 * a real round trip to the counterpart, and how to open the port from a connection.
 * Adding a connector is one folder and one entry in the connector list.
 */
import type { z } from 'zod';
import type { CalendarConnector } from '../../scheduling/domain/calendar-port';
import type {
  BackgroundCheckConnector,
  HrisConnector,
  NotificationConnector,
  PayoutConnector,
  PayrollFileConnector,
  PosConnector,
  SmsConnector,
  VideoMeetingConnector,
} from '../../hooks/domain/connectors';
import type { SmsInboundSink } from '../../sms/domain/sms-inbound';
import type { ConnectorNetwork, Destination } from './connection-destinations';

/** The ports a connection can fill (the handlers' connector tokens). */
export interface PortsByKind {
  email: NotificationConnector;
  sms: SmsConnector;
  video_meetings: VideoMeetingConnector;
  hris: HrisConnector;
  calendar: CalendarConnector;
  payroll_files: PayrollFileConnector;
  payouts: PayoutConnector;
  background_checks: BackgroundCheckConnector;
  pos: PosConnector;
}
export type ConnectorKind = keyof PortsByKind;
/** Every kind, in the order the catalog lists them; a new kind is one entry here and one in PortsByKind. */
export const CONNECTOR_KINDS: readonly ConnectorKind[] = [
  'email',
  'sms',
  'video_meetings',
  'hris',
  'calendar',
  'payroll_files',
  'payouts',
  'background_checks',
  'pos',
];

/** A connection test's outcome; `code` is stable (connection_auth_failed, connection_unreachable, …). */
export type ConnectionTestOutcome = { ok: true; detail: string } | { ok: false; code: string; message: string };

export interface ConnectorDefinition<K extends ConnectorKind = ConnectorKind, S = any, C = any> {
  /** The connector's key in the API (`smtp`). */
  key: string;
  kind: K;
  description: string;
  /**
   * The organization's choice to download this kind's files through the API (payroll-download,
   * pos-download): nothing is delivered, handlers keep their records and sweeps skip it.
   */
  downloadOnly?: boolean;
  settings: z.ZodType<S>;
  credentials: z.ZodType<C>;
  /**
   * A real round trip (SMTP: EHLO, STARTTLS, AUTH); never throws, answers the outcome. It
   * connects through `network` (absent: directly); a refusal there is `destination_not_allowed`.
   */
  test(settings: S, credentials: C, network?: ConnectorNetwork): Promise<ConnectionTestOutcome>;
  /**
   * The hosts these settings make the connector reach, with the settings field each came
   * from: checked against the SSRF guard (connection-destinations.ts). Omitted only by a
   * connector that reaches no host an organization chose.
   */
  destinations?(settings: S): readonly Destination[];
  /** The port for one connection; `close` releases pooled sockets. */
  open(settings: S, credentials: C, context?: OpenContext): PortsByKind[K] & { close?(): void };
}

/** Whom an opened port works for, and where what its counterpart reports later goes. */
export interface OpenContext {
  /** Null for a deployment default (it serves every organization). */
  organizationId: string | null;
  connectionId: string | null;
  /** The plugin's public address (BASE_URL with the mount path): where counterparts call back. */
  publicBaseUrl?: string;
  /** SMS connectors hand delivery receipts and inbound messages (STOP) here. */
  sms?: SmsInboundSink;
  /**
   * Where the port connects through: an organization's connection gets the pinned network (a
   * refusal fails the step with `destination_not_allowed`, permanent); absent, it connects directly.
   */
  network?: ConnectorNetwork;
}

export const CONNECTOR_DEFINITIONS = Symbol('ConnectorDefinitions');
