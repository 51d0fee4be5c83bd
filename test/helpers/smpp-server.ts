/**
 * An SMSC for tests: the `smpp` package's own server on a free port. It checks
 * bind_transceiver credentials (ESME_RINVPASWD otherwise), answers submit_sm with a
 * message_id, keeps what it received and, when asked, sends the delivery receipt
 * (deliver_sm, esm_class 0x04) for a message back on the same session.
 */
import * as smpp from 'smpp';
import { freePort } from './processes';

export interface ReceivedSms {
  messageId: string;
  from: string;
  to: string;
  text: string;
  dataCoding: number;
  registeredDelivery: number;
  systemId: string;
}

export interface TestSmppServer {
  port: number;
  received: ReceivedSms[];
  binds: { systemId: string; ok: boolean }[];
  enquireLinks: number;
  /** The next submit_sm answers this command_status instead of ESME_ROK. */
  failNextSubmit(status: number): void;
  sendReceipt(messageId: string, stat: 'DELIVRD' | 'UNDELIV' | 'REJECTD'): void;
  sendInbound(from: string, to: string, text: string): void;
  /** Ends every session, as an SMSC restart would. */
  dropSessions(): void;
  close(): Promise<void>;
}

export async function startSmppServer(account: { systemId: string; password: string }): Promise<TestSmppServer> {
  const port = await freePort();
  const received: ReceivedSms[] = [];
  const binds: TestSmppServer['binds'] = [];
  const sessions: smpp.Session[] = [];
  let failNext: number | undefined;
  let next = 1;
  const state = { enquireLinks: 0 };
  const server = smpp.createServer({}, (session) => {
    let systemId = '';
    session.on('error', () => undefined);
    session.on('bind_transceiver', (pdu: smpp.PDU) => {
      const ok = pdu.system_id === account.systemId && pdu.password === account.password;
      binds.push({ systemId: String(pdu.system_id), ok });
      if (!ok) {
        session.send(pdu.response({ command_status: smpp.ESME_RINVPASWD }));
        return;
      }
      systemId = String(pdu.system_id);
      sessions.push(session);
      session.send(pdu.response());
    });
    session.on('enquire_link', (pdu: smpp.PDU) => {
      state.enquireLinks += 1;
      session.send(pdu.response());
    });
    session.on('unbind', (pdu: smpp.PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('submit_sm', (pdu: smpp.PDU) => {
      if (!systemId) return session.send(pdu.response({ command_status: smpp.ESME_RINVBNDSTS }));
      if (failNext !== undefined) {
        const status = failNext;
        failNext = undefined;
        return session.send(pdu.response({ command_status: status }));
      }
      const messageId = `msg-${(next++).toString().padStart(6, '0')}`;
      const payload = pdu.message_payload ?? pdu.short_message;
      const text = typeof payload === 'string' ? payload : String(payload?.message ?? '');
      received.push({
        messageId,
        from: String(pdu.source_addr),
        to: String(pdu.destination_addr),
        text,
        dataCoding: Number(pdu.data_coding),
        registeredDelivery: Number(pdu.registered_delivery),
        systemId,
      });
      session.send(pdu.response({ message_id: messageId }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const deliver = (options: Record<string, unknown>) => {
    const session = sessions.find((s) => !s.socket.destroyed);
    if (!session) throw new Error('no bound SMPP session to deliver to');
    session.deliver_sm(options);
  };
  return {
    port,
    received,
    binds,
    get enquireLinks() {
      return state.enquireLinks;
    },
    failNextSubmit: (status) => {
      failNext = status;
    },
    sendReceipt: (messageId, stat) =>
      deliver({
        esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT,
        short_message: `id:${messageId} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:2611251200 done date:2611251201 stat:${stat} err:000 text:`,
      }),
    sendInbound: (from, to, text) =>
      deliver({ source_addr: from.replace(/^\+/, ''), source_addr_ton: 1, destination_addr: to.replace(/^\+/, ''), short_message: text }),
    dropSessions: () => {
      for (const s of server.sessions) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of server.sessions) s.destroy();
        server.close(() => resolve());
      }),
  };
}
