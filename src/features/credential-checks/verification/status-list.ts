/**
 * Bitstring Status List (W3C, v1.0): a credential's `credentialStatus` points at an index in
 * a bitstring published by its issuer as a credential of its own; a set bit revokes (or
 * suspends) it. The list is a multibase base64url ('u') GZIP-compressed bitstring, whose bit
 * 0 is the most significant bit of the first byte.
 */
import { gunzipSync } from 'node:zlib';

export interface StatusEntry {
  purpose: 'revocation' | 'suspension';
  index: number;
  listUrl: string;
}

const MAX_LIST_BYTES = 16 << 20;

/** The status entries we understand; anything else about status is ignored as the spec allows. */
export function statusEntries(credentialStatus: unknown): StatusEntry[] {
  const entries = Array.isArray(credentialStatus) ? credentialStatus : credentialStatus ? [credentialStatus] : [];
  const out: StatusEntry[] = [];
  for (const e of entries as Array<Record<string, unknown>>) {
    if (!e || (e.type !== 'BitstringStatusListEntry' && e.type !== 'StatusList2021Entry')) continue;
    const purpose = e.statusPurpose;
    if (purpose !== 'revocation' && purpose !== 'suspension') continue;
    const index = typeof e.statusListIndex === 'string' ? Number(e.statusListIndex) : NaN;
    if (!Number.isSafeInteger(index) || index < 0 || typeof e.statusListCredential !== 'string') throw new Error('credentialStatus is malformed');
    out.push({ purpose, index, listUrl: e.statusListCredential });
  }
  return out;
}

export function decodeBitstring(encodedList: string): Buffer {
  if (!encodedList.startsWith('u')) throw new Error('encodedList is not multibase base64url');
  const compressed = Buffer.from(encodedList.slice(1), 'base64url');
  return gunzipSync(compressed, { maxOutputLength: MAX_LIST_BYTES });
}

export function isBitSet(bits: Buffer, index: number): boolean {
  const byte = Math.floor(index / 8);
  if (byte >= bits.length) throw new Error('statusListIndex is outside the list');
  return (bits[byte]! & (0x80 >> (index % 8))) !== 0;
}
