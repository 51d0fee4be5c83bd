/**
 * Browser tests drive Debian's Chromium (/usr/bin/chromium, `apt-get install -y chromium`)
 * through playwright-core; no browser is ever downloaded. Listing pages are served by a
 * tiny HTTP server on another port of 127.0.0.1, so they run on an origin that is not
 * the service's, as an organization's job board would.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { skipBecause } from './skip';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = path.resolve(__dirname, '..', '..', '..', 'test-artifacts');

export function chromiumMissing(): string | undefined {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return undefined;
  } catch {
    return `no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium); no browser is downloaded`;
  }
}

/** Skips the whole suite (call from `before`) when Chromium is not installed. */
export function skipWithoutChromium(context: Mocha.Context): void {
  const reason = chromiumMissing();
  if (reason) {
    skipBecause(context, reason);
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return path.join(ARTIFACTS_DIR, name);
}

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 (its own port, so its own origin) answering with `render`. */
export async function startPageServer(render: (url: URL, req: IncomingMessage) => string | undefined): Promise<PageServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const html = render(url, req);
    if (html === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * A job listing page that embeds the widget the documented way, and records every
 * `profile-apply:*` event (type and detail) in `window.widgetEvents` for assertions.
 */
export function listingPage(options: { scriptUrl: string; attributes: Record<string, string>; pageStyle?: string }): string {
  const attributes = Object.entries(options.attributes)
    .map(([k, v]) => `${k}="${attr(v)}"`)
    .join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Listing</title>
<style>body{font-family:Georgia,serif;color:#b00;background:#fafafa;margin:24px}button{background:#f0f!important;color:#0f0!important}h3{font-size:40px}${options.pageStyle ?? ''}</style></head>
<body><h1>Backend Engineer</h1><p>A listing page with styles that must not leak into the widget.</p>
<profile-apply id="w" ${attributes}></profile-apply>
<script>
window.widgetEvents = [];
['authorized', 'submitted', 'error', 'cancel'].forEach(function (t) {
  document.addEventListener('profile-apply:' + t, function (e) { window.widgetEvents.push({ type: e.type, detail: e.detail, target: e.target && e.target.id }); });
});
</script>
<script src="${attr(options.scriptUrl)}" async></script>
</body></html>`;
}
