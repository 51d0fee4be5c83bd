/**
 * Debian's OpenSSH server (an SFTP server we did not write) started by the test as the
 * current user, with its own config, host key and authorized_keys, on a free port, in the
 * foreground (-D, logs on stderr with -e). Files land in `root/`; `inbound/` is writable.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { startChildServer } from './child-server';
import { freePort } from './processes';

const SSHD = '/usr/sbin/sshd';

export interface TestSshd {
  port: number;
  username: string;
  /** Where uploads land (absolute on this machine, the same path the server sees). */
  inbound: string;
  /** OpenSSH fingerprint of the host key (`SHA256:…`). */
  hostKeySha256: string;
  /** The client key authorized to log in (OpenSSH private key). */
  clientKey: string;
  /** Another key, not authorized. */
  strangerKey: string;
  stop(): Promise<void>;
}

function keygen(file: string): string {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'hiring-integrations-test', '-f', file]);
  return readFileSync(file, 'utf8');
}

export async function startSshd(): Promise<TestSshd> {
  const dir = mkdtempSync(path.join(tmpdir(), 'hi-sshd-'));
  const port = await freePort();
  const hostKey = path.join(dir, 'host_ed25519');
  keygen(hostKey);
  const clientKey = keygen(path.join(dir, 'client_ed25519'));
  const strangerKey = keygen(path.join(dir, 'stranger_ed25519'));
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(path.join(dir, 'client_ed25519.pub')));
  const inbound = path.join(dir, 'inbound');
  mkdirSync(inbound);
  const hostKeySha256 = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${hostKey}.pub`], { encoding: 'utf8' }).split(' ')[1];
  // Running as root needs the privilege separation directory; as another user sshd skips privsep.
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'Subsystem sftp internal-sftp',
      'LogLevel VERBOSE',
      '',
    ].join('\n'),
  );
  const server = await startChildServer({
    name: 'sshd',
    command: SSHD,
    args: ['-D', '-e', '-f', config],
    port,
    readyWithinMs: 10_000,
    hint: 'is openssh-server installed?',
  });
  return {
    port,
    username: userInfo().username,
    inbound,
    hostKeySha256,
    clientKey,
    strangerKey,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
