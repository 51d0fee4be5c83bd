/**
 * One bound SMPP 3.4 transceiver session (bind_transceiver), kept open between messages:
 * enquire_link every `enquire_link_seconds` keeps it alive, the SMSC's own enquire_link and
 * deliver_sm are answered, and a session that closed or failed is bound again on the next
 * use (reconnect). Every request waits at most TIMEOUT_MS for its response. An organization's
 * connection connects through the pinned network (its `lookup`, passed on to net/tls.connect).
 */
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import * as smpp from 'smpp';
import type { SmppCredentials, SmppSettings } from './settings';
import { classifyBindStatus, classifySocketError, SmppError } from './smpp-errors';

const TIMEOUT_MS = 15_000;

/** Settles once what the SMSC delivered is recorded; a rejection answers ESME_RX_T_APPN, so the SMSC delivers it again later. */
export type DeliverSmListener = (pdu: smpp.PDU) => Promise<void>;

export class SmppSession {
  private bound: Promise<smpp.Session> | undefined;
  private closed = false;

  constructor(
    private readonly settings: SmppSettings,
    private readonly credentials: SmppCredentials,
    private readonly onDeliverSm?: DeliverSmListener,
    private readonly network?: ConnectorNetwork,
  ) {}

  /** The bound session, binding (again) when there is none. */
  session(): Promise<smpp.Session> {
    if (this.closed) return Promise.reject(new SmppError({ code: 'connection_unreachable', message: 'The SMPP connector was closed', transient: true }));
    this.bound ??= this.bind().catch((error: unknown) => {
      this.bound = undefined;
      throw error;
    });
    return this.bound;
  }

  /** Sends one request and answers its response PDU. */
  async request(command: 'submit_sm' | 'enquire_link', options: Record<string, unknown>): Promise<smpp.PDU> {
    const session = await this.session();
    return withTimeout(
      new Promise<smpp.PDU>((resolve, reject) => {
        const onClose = () =>
          reject(new SmppError({ code: 'connection_unreachable', message: `The SMSC closed the session before answering ${command}`, transient: true }));
        session.once('close', onClose);
        const sent = session[command](options, (pdu: smpp.PDU) => {
          session.off('close', onClose);
          resolve(pdu);
        });
        if (!sent) onClose();
      }),
      command,
    );
  }

  close(): void {
    this.closed = true;
    const bound = this.bound;
    this.bound = undefined;
    void bound?.then((s) => s.unbind(() => s.close())).catch(() => undefined);
  }

  private bind(): Promise<smpp.Session> {
    return withTimeout(
      new Promise<smpp.Session>((resolve, reject) => {
        try {
          this.network?.checkLiteral(this.settings.host);
        } catch (error) {
          return reject(new SmppError(classifySocketError(error)));
        }
        const session = smpp.connect({
          host: this.settings.host,
          port: this.settings.port,
          tls: this.settings.tls,
          ...(this.settings.tls ? { servername: this.settings.host } : {}),
          auto_enquire_link_period: this.settings.enquire_link_seconds * 1000,
          ...(this.network ? { lookup: this.network.lookup } : {}),
        });
        const forget = () => {
          // The next use binds again.
          if (this.bound && settled) this.bound = undefined;
        };
        let settled = false;
        session.on('error', (error: unknown) => {
          if (!settled) {
            settled = true;
            reject(new SmppError(classifySocketError(error)));
          }
          forget();
          session.destroy();
        });
        session.on('close', forget);
        session.on('enquire_link', (pdu: smpp.PDU) => session.send(pdu.response()));
        session.on('unbind', (pdu: smpp.PDU) => {
          session.send(pdu.response());
          forget();
          session.close();
        });
        session.on('deliver_sm', (pdu: smpp.PDU) => {
          const recorded = this.onDeliverSm ? this.onDeliverSm(pdu) : Promise.resolve();
          recorded.then(
            () => session.send(pdu.response()),
            () => session.send(pdu.response({ command_status: smpp.ESME_RX_T_APPN })),
          );
        });
        session.once(this.settings.tls ? 'secureConnect' : 'connect', () => {
          session.bind_transceiver(
            {
              system_id: this.credentials.system_id,
              password: this.credentials.password,
              ...(this.settings.system_type ? { system_type: this.settings.system_type } : {}),
            },
            (pdu: smpp.PDU) => {
              settled = true;
              if (pdu.command_status === smpp.ESME_ROK) return resolve(session);
              session.close();
              reject(new SmppError(classifyBindStatus(pdu.command_status)));
            },
          );
        });
      }),
      'bind_transceiver',
    );
  }
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new SmppError({ code: 'counterpart_unavailable', message: `The SMSC did not answer ${what} within ${TIMEOUT_MS / 1000} s`, transient: true })),
      TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
