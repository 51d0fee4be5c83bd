/**
 * The SMTP connector hands nodemailer's composed message to the socket in one write
 * (src/connectors/smtp/one-write-message.ts): against a real SMTP server (`smtp-server`), the
 * bytes that arrive are exactly those the transport sends without it, a message bigger than
 * the collection limit (a 300 KB attachment) arrives intact, and the client socket sees a
 * handful of writes for the whole DATA phase instead of one per MIME piece.
 */
import { strict as assert } from 'node:assert';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTransport } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { sendInOneWrite } from '../../src/connectors/smtp/one-write-message';

describe('SMTP: a composed message leaves in one write', () => {
  const received: Buffer[] = [];
  let server: SMTPServer;
  let port: number;

  before(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Sends one message through a transport whose socket counts its writes; answers the writes and the bytes received. */
  async function send(oneWrite: boolean, attachment?: Buffer): Promise<{ writes: number; raw: Buffer }> {
    let writes = 0;
    const transport = createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      getSocket: (_options: unknown, callback: (error: Error | null, result?: { connection: net.Socket }) => void) => {
        const socket = net.connect(port, '127.0.0.1', () => callback(null, { connection: socket }));
        const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
        socket.write = ((...args: unknown[]) => {
          writes += 1;
          return write(...args);
        }) as typeof socket.write;
      },
    } as never);
    if (oneWrite) sendInOneWrite(transport);
    const before = received.length;
    await transport.sendMail({
      from: 'jobs@acme.example',
      to: 'ada@example.org',
      subject: 'Reminder: Onsite interview',
      text: 'Hello Ada, a reminder: "Onsite interview" starts at 10:00.',
      html: '<p>Hello Ada, a reminder: <b>Onsite interview</b> starts at 10:00.</p>',
      messageId: '<fixed@acme.example>',
      date: new Date('2026-11-28T10:00:00Z'),
      headers: { 'Content-Language': 'en' },
      ...(attachment ? { attachments: [{ filename: 'sheet.pdf', content: attachment, contentType: 'application/pdf' }] } : {}),
    });
    transport.close();
    assert.equal(received.length, before + 1);
    return { writes, raw: received[received.length - 1]! };
  }

  // MIME boundaries are random per message: compared with them replaced.
  const normalized = (raw: Buffer) =>
    raw
      .toString('latin1')
      .replace(/--_NmP-[0-9a-f]+-Part_\d+/g, 'BOUNDARY')
      .replace(/"--_NmP-[^"]+"/g, '"BOUNDARY"');

  it('the same bytes arrive, in far fewer socket writes', async () => {
    const streamed = await send(false);
    const collected = await send(true);
    assert.equal(normalized(collected.raw), normalized(streamed.raw));
    assert.ok(collected.writes < streamed.writes, `${collected.writes} writes with it, ${streamed.writes} without`);
    // The commands before DATA are the same on both; the message itself is one write (and the final dot).
    assert.ok(streamed.writes - collected.writes >= 3, `${collected.writes} writes with it, ${streamed.writes} without`);
  });

  it('a message bigger than the collection limit streams on and arrives intact', async () => {
    const attachment = Buffer.alloc(300 * 1024, 7);
    const streamed = await send(false, attachment);
    const collected = await send(true, attachment);
    assert.equal(normalized(collected.raw), normalized(streamed.raw));
    assert.ok(collected.raw.length > 400 * 1024);
  });
});
