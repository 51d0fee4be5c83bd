/**
 * One SFTP session with the host key pinned: ssh2 hands us the server's key during the
 * handshake and we compare its SHA-256 with the connection's fingerprint before any
 * credential is sent. Failures become stable codes: a key mismatch is
 * `connection_host_key_mismatch`, refused credentials `connection_auth_failed`, a missing
 * or forbidden directory `directory_missing` / `permission_denied` (all final); a network
 * error is `connection_unreachable` (retried). An organization's connection hands ssh2 a TCP
 * connection the pinned network made (its address checked at connect: `destination_not_allowed`).
 */
import { createHash } from 'node:crypto';
import SftpClient from 'ssh2-sftp-client';
import { DomainError, upstream } from '../../kernel/errors';
import { destinationRefusedAtConnect, type ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { isDestinationRefused } from '../../platform/network/pinned-network';
import type { SftpCredentials, SftpSettings } from './settings';

const TIMEOUT_MS = 10_000;
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH']);

export const fingerprintOf = (key: Buffer) => `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

export interface SftpSession {
  client: SftpClient;
  close(): Promise<void>;
}

export async function openSftp(settings: SftpSettings, credentials: SftpCredentials, network?: ConnectorNetwork): Promise<SftpSession> {
  const client = new SftpClient('hiring-integrations');
  let presented: string | undefined;
  try {
    const sock = network ? await network.connect(settings.host, settings.port, TIMEOUT_MS) : undefined;
    await client.connect({
      ...(sock ? { sock } : {}),
      host: settings.host,
      port: settings.port,
      username: settings.username,
      ...('password' in credentials ? { password: credentials.password } : { privateKey: credentials.private_key, passphrase: credentials.passphrase }),
      readyTimeout: TIMEOUT_MS,
      hostVerifier: (key: Buffer) => {
        presented = fingerprintOf(key);
        return presented === settings.host_key_sha256;
      },
      retries: 0,
    });
  } catch (error) {
    await client.end().catch(() => undefined);
    if (presented && presented !== settings.host_key_sha256)
      throw new DomainError(
        'conflict',
        'connection_host_key_mismatch',
        `The server presented host key ${presented}, not the pinned ${settings.host_key_sha256}`,
      );
    throw sftpFailure(error);
  }
  return {
    client,
    close: () =>
      client.end().then(
        () => undefined,
        () => undefined,
      ),
  };
}

export function sftpFailure(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (isDestinationRefused(error)) return destinationRefusedAtConnect(error);
  const e = (error ?? {}) as { code?: unknown; level?: unknown; message?: unknown };
  const message = String(e.message ?? error).slice(0, 300);
  if (e.level === 'client-authentication' || /authentication|all configured authentication methods failed/i.test(message))
    return new DomainError('conflict', 'connection_auth_failed', `The SFTP server refused the credentials: ${message}`);
  if (e.code === 2 || /no such file/i.test(message)) return new DomainError('conflict', 'directory_missing', `The SFTP path does not exist: ${message}`);
  if (e.code === 3 || /permission denied/i.test(message))
    return new DomainError('conflict', 'permission_denied', `The SFTP server refused the write: ${message}`);
  if ((typeof e.code === 'string' && UNREACHABLE.has(e.code)) || /timed out|ECONNREFUSED|ECONNRESET|ENOTFOUND/.test(message))
    return upstream('connection_unreachable', `The SFTP server could not be reached: ${message}`);
  return upstream('connection_protocol_error', `The SFTP exchange failed: ${message}`);
}
