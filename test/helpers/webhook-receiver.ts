/**
 * A webhook receiver on a free loopback port that verifies every delivery with the
 * reference implementation (`standardwebhooks`), records it, and answers what the test
 * says: a status, a held request, or nothing at all (stopped: connection refused).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  payload: { id: string; type: string; timestamp: string; sequence: number; data: any };
  /** Which of the receiver's secrets verified it. */
  verifiedWith: string[];
  status: number;
}

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Status to answer per request (default 200); `hold` keeps the request open until released. */
  respond: (request: { id: string; attempt: number; type: string }) => number | 'hold' = () => 200;
  secrets: string[] = [];
  private server: Server | undefined;
  private held: ServerResponse[] = [];
  port = 0;

  static async start(port = 0): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.listen(port);
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/webhooks`;
  }

  async listen(port = this.port): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 500;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Stops accepting connections and drops open ones: deliveries now fail with a network error. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const res of this.held.splice(0)) res.destroy();
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  release(status = 200): void {
    for (const res of this.held.splice(0)) res.writeHead(status).end();
  }

  /** Distinct deliveries that were answered 2xx, by webhook-id. */
  delivered(): Map<string, ReceivedWebhook[]> {
    const byId = new Map<string, ReceivedWebhook[]>();
    for (const r of this.received.filter((r) => r.status >= 200 && r.status < 300)) byId.set(r.id, [...(byId.get(r.id) ?? []), r]);
    return byId;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    };
    const verifiedWith = this.secrets.filter((secret) => {
      try {
        new Webhook(secret).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    const attempt = this.received.filter((r) => r.id === headers['webhook-id']).length + 1;
    const payload = JSON.parse(body);
    const answer = verifiedWith.length === 0 ? 401 : this.respond({ id: headers['webhook-id'], attempt, type: payload.type });
    this.received.push({
      id: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
      body,
      payload,
      verifiedWith,
      status: answer === 'hold' ? 0 : answer,
    });
    if (answer === 'hold') this.held.push(res);
    else res.writeHead(answer).end();
  }
}

/** Settings that make delivery retries take milliseconds, and let deliveries reach this loopback receiver. */
export const FAST_WEBHOOKS = {
  RATE_LIMIT_PER_MINUTE: '0',
  WEBHOOK_ALLOWED_INTERNAL_HOSTS: '127.0.0.1',
  WEBHOOK_RETRY_BASE_MS: '20',
  WEBHOOK_RETRY_MAX_DELAY_MS: '200',
  WEBHOOK_RETRY_WINDOW_SECONDS: '3',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_SWEEP_INTERVAL_MS: '300',
  WEBHOOK_SWEEP_GRACE_MS: '1000',
};
