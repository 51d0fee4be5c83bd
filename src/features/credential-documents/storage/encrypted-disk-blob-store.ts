/**
 * The default BlobStore: one file per blob in a local folder, sealed with AES-256-GCM (a
 * fresh 96-bit IV per file; the blob key is the associated data, so a file copied under
 * another document's name fails to open). Format: `HIB1` | iv (12) | tag (16) | ciphertext.
 * Files are written to a temporary name and renamed, so a crash never leaves half a file.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from '../domain/blob-store';

const MAGIC = Buffer.from('HIB1');
const SAFE_KEY = /^[A-Za-z0-9_-]{1,100}$/;

export class EncryptedDiskBlobStore implements BlobStore {
  constructor(
    private readonly dir: string,
    private readonly key: Buffer,
  ) {
    if (key.length !== 32) throw new Error('EncryptedDiskBlobStore needs a 32-byte key');
  }

  async put(key: string, content: Buffer): Promise<void> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(key, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(content), cipher.final()]);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(key);
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    await writeFile(partial, Buffer.concat([MAGIC, iv, cipher.getAuthTag(), ciphertext]), { mode: 0o600 });
    await rename(partial, file);
  }

  async get(key: string): Promise<Buffer | undefined> {
    let sealed: Buffer;
    try {
      sealed = await readFile(this.fileOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if (sealed.length < 32 || !sealed.subarray(0, 4).equals(MAGIC)) throw new Error(`Blob ${key} is not a sealed blob`);
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(4, 16));
    decipher.setAAD(Buffer.from(key, 'utf8'));
    decipher.setAuthTag(sealed.subarray(16, 32));
    return Buffer.concat([decipher.update(sealed.subarray(32)), decipher.final()]);
  }

  async delete(key: string): Promise<void> {
    await rm(this.fileOf(key), { force: true });
  }

  private fileOf(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe blob key ${JSON.stringify(key)}`);
    return path.join(this.dir, `${key}.blob`);
  }
}
