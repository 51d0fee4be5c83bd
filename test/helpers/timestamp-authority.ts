/**
 * A real RFC 3161 time-stamp authority for the PAdES-B-T tests: Debian's `openssl ts -reply`
 * (OpenSSL's own TSA, not ours) behind a small HTTP wrapper (RFC 3161 §3.4: POST
 * application/timestamp-query, answer application/timestamp-reply), with a throwaway root and
 * a TSA certificate (extendedKeyUsage timeStamping, critical) made by openssl. `/tsa` answers;
 * `/garbage` answers 200 with bytes that are no TimeStampResp.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TestTimestampAuthority {
  /** `http://127.0.0.1:<port>` (add `/tsa` or `/garbage`). */
  url: string;
  /** The root the TSA certificate chains to (PEM file), for `openssl ts -verify -CAfile`. */
  caFile: string;
  requests: number;
  close(): Promise<void>;
}

const CONFIG = (dir: string) => `
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = ${dir}/serial
crypto_device = builtin
signer_cert = ${dir}/tsa.crt
certs = ${dir}/ca.crt
signer_key = ${dir}/tsa.key
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256
accuracy = secs:1
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;

export async function startTimestampAuthority(): Promise<TestTimestampAuthority> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tsa-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=Test TSA Root', '-days', '2');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'tsa.key', '-out', 'tsa.csr', '-subj', '/CN=Test Time-Stamp Authority');
  writeFileSync(path.join(dir, 'tsa.ext'), 'extendedKeyUsage = critical, timeStamping\nkeyUsage = critical, digitalSignature\n');
  openssl('x509', '-req', '-in', 'tsa.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'tsa.crt', '-days', '2', '-extfile', 'tsa.ext');
  writeFileSync(path.join(dir, 'serial'), '01\n');
  writeFileSync(path.join(dir, 'tsa.cnf'), CONFIG(dir));

  let requests = 0;
  let sequence = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(415).end();
        return;
      }
      requests += 1;
      if (req.url === '/garbage') {
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(Buffer.from('not a TimeStampResp'));
        return;
      }
      const n = (sequence += 1);
      const query = path.join(dir, `query-${n}.tsq`);
      const reply = path.join(dir, `reply-${n}.tsr`);
      writeFileSync(query, Buffer.concat(chunks));
      const child = spawn('openssl', ['ts', '-reply', '-config', 'tsa.cnf', '-queryfile', query, '-out', reply], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => {
        if (code !== 0) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end(stderr);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(readFileSync(reply));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    caFile: path.join(dir, 'ca.crt'),
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
