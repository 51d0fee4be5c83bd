/** The part of the `smpp` package (no published types) this connector and its tests use. */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer } from 'node:net';

  export interface PDU {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: any;
    response(options?: Record<string, unknown>): PDU;
    isResponse(): boolean;
  }

  export interface Session extends EventEmitter {
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void): boolean;
    bind_transceiver(options: Record<string, unknown>, callback?: (pdu: PDU) => void): boolean;
    submit_sm(options: Record<string, unknown>, callback?: (pdu: PDU) => void): boolean;
    deliver_sm(options: Record<string, unknown>, callback?: (pdu: PDU) => void): boolean;
    enquire_link(options?: Record<string, unknown> | ((pdu: PDU) => void), callback?: (pdu: PDU) => void): boolean;
    unbind(options?: Record<string, unknown> | ((pdu: PDU) => void), callback?: (pdu: PDU) => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    socket: import('node:net').Socket;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function connect(options: Record<string, unknown>, listener?: () => void): Session;
  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): Server;
  export const ESME_ROK: number;
  export const ESME_RINVPASWD: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RINVSYSID: number;
  export const ESME_RTHROTTLED: number;
  export const ESME_RMSGQFUL: number;
  export const ESME_RSYSERR: number;
  export const ESME_RINVDSTADR: number;
  export const ESME_RX_T_APPN: number;
  export const ESME_RX_P_APPN: number;
  export const ESME_RX_R_APPN: number;
  export const ESME_RINVBNDSTS: number;
  export const ENCODING: Record<string, number>;
  export const ESM_CLASS: Record<string, number>;
}
