/**
 * A counterpart the test runs as a child process (Debian's sshd, aiosmtpd and xandikos,
 * Prism): its output goes to the run's log under its name, it is ready once `ready()` says
 * so (by default, once its port accepts a TCP connection), and `stop()` ends it with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { appendChildLog } from './log-capture';

export interface ChildServer {
  child: ChildProcess;
  /** SIGTERM, resolved once the process has exited. */
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  /** The name its log lines carry, and errors name. */
  name: string;
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  /** Checked until true; default: `port` accepts a connection on 127.0.0.1. */
  ready?: () => Promise<boolean>;
  port?: number;
  readyWithinMs: number;
  /** Added to the error when the process exits before it is ready (e.g. which package to install). */
  hint?: string;
}

export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const { name, port } = options;
  const ready = options.ready ?? (() => acceptsConnections(port ?? 0));
  const child = spawn(options.command, options.args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  child.stdout!.on('data', (d: Buffer) => appendChildLog(`[${name}] ${d.toString()}`));
  child.stderr!.on('data', (d: Buffer) => appendChildLog(`[${name}] ${d.toString()}`));
  const deadline = Date.now() + options.readyWithinMs;
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}${options.hint ? ` (${options.hint})` : ''}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready within ${options.readyWithinMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
