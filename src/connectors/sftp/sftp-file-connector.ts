/**
 * Payroll files onto the organization's SFTP server. A file is written under a hidden
 * temporary name and renamed into place, so the payroll system never picks up half a
 * file. Delivering the same name again is idempotent when the bytes are the same (a
 * retried job) and refused (`file_exists`) when they differ: we never overwrite a file
 * the payroll provider may already have imported.
 */
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import type { DeliveredFile, PayrollFile, PayrollFileConnector, StreamedFile } from '../../features/hooks/domain/connectors';
import { DomainError } from '../../kernel/errors';
import type { SftpCredentials, SftpSettings } from './settings';
import { openSftp, sftpFailure } from './sftp-session';

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export class SftpFileConnector implements PayrollFileConnector {
  constructor(
    private readonly settings: SftpSettings,
    private readonly credentials: SftpCredentials,
    private readonly network?: ConnectorNetwork,
  ) {}

  async deliverFile(file: PayrollFile): Promise<DeliveredFile> {
    if (!SAFE_NAME.test(file.fileName)) throw new DomainError('invalid', 'file_name_invalid', 'A payroll file name is letters, digits, _ . -');
    const bytes = Buffer.from(file.content, 'utf8');
    const digest = sha256(bytes);
    const path = `${this.settings.directory === '/' ? '' : this.settings.directory}/${file.fileName}`;
    const session = await openSftp(this.settings, this.credentials, this.network);
    try {
      const { client } = session;
      if (await client.exists(path)) {
        const held = (await client.get(path)) as Buffer;
        if (sha256(held) !== digest) throw new DomainError('conflict', 'file_exists', `${path} already exists with other content; it is never overwritten`);
      } else {
        const partial = `${path.slice(0, path.length - file.fileName.length)}.${file.fileName}.${randomBytes(4).toString('hex')}.part`;
        await client.put(bytes, partial);
        await client.rename(partial, path);
      }
      return { deliveryId: file.idempotencyKey, path, sha256: digest, reference: `sha256:${digest}` };
    } catch (error) {
      throw sftpFailure(error);
    } finally {
      await session.close();
    }
  }

  /**
   * A file produced while it is sent (candidate exports): hashed on the way, written under
   * the hidden temporary name and renamed into place. A file already there under the name
   * (a retried run) is kept when its digest is the one the content gives, else file_exists.
   */
  async deliverFileStream(file: StreamedFile): Promise<DeliveredFile> {
    if (!SAFE_NAME.test(file.fileName)) throw new DomainError('invalid', 'file_name_invalid', 'A file name is letters, digits, _ . -');
    const path = `${this.settings.directory === '/' ? '' : this.settings.directory}/${file.fileName}`;
    const session = await openSftp(this.settings, this.credentials, this.network);
    try {
      const { client } = session;
      if (await client.exists(path)) {
        const held = createHash('sha256');
        await client.get(path, hashingSink(held));
        const digest = held.digest('hex');
        if (digest !== (await digestOf(file.content())))
          throw new DomainError('conflict', 'file_exists', `${path} already exists with other content; it is never overwritten`);
        return { deliveryId: file.idempotencyKey, path, sha256: digest, reference: `sha256:${digest}` };
      }
      const hash = createHash('sha256');
      const partial = `${path.slice(0, path.length - file.fileName.length)}.${file.fileName}.${randomBytes(4).toString('hex')}.part`;
      await client.put(Readable.from(hashed(file.content(), hash)), partial);
      await client.rename(partial, path);
      const digest = hash.digest('hex');
      return { deliveryId: file.idempotencyKey, path, sha256: digest, reference: `sha256:${digest}` };
    } catch (error) {
      throw sftpFailure(error);
    } finally {
      await session.close();
    }
  }
}

async function* hashed(chunks: AsyncIterable<string>, hash: Hash): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk, 'utf8');
    hash.update(bytes);
    yield bytes;
  }
}

async function digestOf(chunks: AsyncIterable<string>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of chunks) hash.update(Buffer.from(chunk, 'utf8'));
  return hash.digest('hex');
}

const hashingSink = (hash: Hash) =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done();
    },
  });
