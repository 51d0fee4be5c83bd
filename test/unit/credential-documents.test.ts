/** The document type check reads bytes, not names; the blob store's files are sealed and bound to their key. */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sniffDocumentType } from '../../src/features/credential-documents/domain/document-type';
import { EncryptedDiskBlobStore } from '../../src/features/credential-documents/storage/encrypted-disk-blob-store';

describe('credential documents: type check and encrypted blob store', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'blobs-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('knows PDF, PNG and JPEG by their magic numbers, and nothing else', () => {
    assert.equal(sniffDocumentType(Buffer.from('%PDF-1.4 …')), 'application/pdf');
    assert.equal(sniffDocumentType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), 'image/png');
    assert.equal(sniffDocumentType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0])), 'image/jpeg');
    for (const other of ['%PDF', '<svg/>', 'GIF89a…', 'PK\u0003\u0004', '', ' %PDF-1.4']) assert.equal(sniffDocumentType(Buffer.from(other)), undefined, other);
  });

  it('round-trips, refuses a tampered file, a file moved under another key, another key, and unsafe keys', async () => {
    const store = new EncryptedDiskBlobStore(dir, Buffer.alloc(32, 7));
    const content = Buffer.from('%PDF-1.7 secret license');
    await store.put('cdoc_a', content);
    assert.deepEqual(await store.get('cdoc_a'), content);
    assert.ok(!readFileSync(path.join(dir, 'cdoc_a.blob')).includes(Buffer.from('secret')));
    await assert.rejects(new EncryptedDiskBlobStore(dir, Buffer.alloc(32, 8)).get('cdoc_a'));
    const sealed = readFileSync(path.join(dir, 'cdoc_a.blob'));
    sealed[sealed.length - 1]! ^= 1;
    writeFileSync(path.join(dir, 'cdoc_b.blob'), sealed);
    await assert.rejects(store.get('cdoc_b'), 'tampered');
    await store.put('cdoc_c', content);
    renameSync(path.join(dir, 'cdoc_c.blob'), path.join(dir, 'cdoc_d.blob'));
    await assert.rejects(store.get('cdoc_d'), 'bound to its key');
    await assert.rejects(store.put('../escape', content));
    await store.delete('cdoc_a');
    await store.delete('cdoc_a');
    assert.equal(await store.get('cdoc_a'), undefined);
  });
});
