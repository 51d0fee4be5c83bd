/**
 * Pages the standalone host adds around the plugin (never in production):
 *
 *   GET /                → /demo
 *   GET /demo            a job listing page of the demo organization with <profile-apply>
 *                        embedded the way an organization would embed it
 *   GET /demo/pipeline   the demo organization's hiring pipeline: delivered applications
 *                        with their imported skills, credentials, experience and work history
 *   GET /favicon.ico     the host's icon (also in production)
 *
 * The demo organization is the one `npm start` seeds (DATA_DIR/demo-credentials.json).
 * Every value is HTML-escaped; the pages run under a nonce-based CSP.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type Response } from 'express';
import type { Listing } from '../../features/listings/domain/listing';
import type { PipelineApplication } from '../../features/applications/domain/pipeline';
import { escapeHtml, newNonce } from '../../platform/http/html';
import type { DemoCredentials } from './demo-data';
import { favicon } from '../host/favicon';
import type { PipelineEntry } from '../host/pipeline-store';
import type { StandaloneHost } from '../host/standalone-host';

type Host = Omit<StandaloneHost, 'close'>;

const DEMO_ORGANIZATION_NAME = 'Demo Organization';

export interface HostRoutesOptions {
  /** Where the demo organization comes from; default: DATA_DIR/demo-credentials.json, read per request. */
  demo?: () => DemoCredentials | undefined;
  /** false: no demo pages at all (the demo is opt-in outside embedded mode). */
  enabled?: boolean;
}

const e = (value: unknown): string => escapeHtml(value === undefined || value === null ? '' : String(value));
const httpUrl = (value: unknown): string | undefined => (typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value) ? value : undefined);
const originOf = (url: string): string => new URL(url).origin;

function demoFromDataDir(dataDir: string): DemoCredentials | undefined {
  try {
    const saved = JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as Partial<DemoCredentials>;
    return saved.organization_id && saved.listing_id ? (saved as DemoCredentials) : undefined;
  } catch {
    return undefined;
  }
}

const CSS = `
:root{--bg:#f6f7f9;--card:#fff;--fg:#111827;--muted:#4b5563;--line:#e5e7eb;--soft:#f3f4f6;--accent:#1d4ed8;--chip:#eef2ff;--chip-fg:#3730a3;--ok:#047857;--ok-bg:#ecfdf5;--warn:#92400e;--warn-bg:#fffbeb;--warn-line:#fde68a;color-scheme:light}
@media (prefers-color-scheme:dark){:root{--bg:#0b1220;--card:#111827;--fg:#f3f4f6;--muted:#aab2bf;--line:#374151;--soft:#1f2937;--accent:#93c5fd;--chip:#1e1b4b;--chip-fg:#c7d2fe;--ok:#6ee7b7;--ok-bg:#064e3b;--warn:#fcd34d;--warn-bg:#422006;--warn-line:#78350f;color-scheme:dark}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
header{background:#0f172a;color:#f8fafc}
header .in{max-width:1080px;margin:0 auto;padding:14px 24px;display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:16px}
header a{color:#cbd5e1;text-decoration:none;font-size:14px}
header a:hover{color:#fff;text-decoration:underline}
.logo{font-weight:700;letter-spacing:.2px;color:#fff}
main{max-width:1080px;margin:0 auto;padding:32px 24px 64px}
.grid{display:grid;grid-template-columns:minmax(0,1fr) 400px;gap:32px;align-items:start}
@media (max-width:900px){.grid{grid-template-columns:minmax(0,1fr)}}
.card{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:24px}
h1{font-size:30px;line-height:1.25;margin:0 0 8px}
h2{font-size:19px;margin:28px 0 8px}
.meta{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 20px;padding:0;list-style:none}
.chip{display:inline-block;background:var(--chip);color:var(--chip-fg);border-radius:999px;padding:2px 10px;font-size:13px;font-weight:600}
.muted{color:var(--muted)}
.small{font-size:14px}
aside{position:sticky;top:24px;display:grid;gap:16px}
.themes{display:flex;gap:14px;border:0;padding:0;margin:0}
.themes legend{font-weight:600;font-size:14px;margin-bottom:6px}
.themes label{display:inline-flex;gap:6px;align-items:center;font-size:14px}
.lang{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:14px 0 0;font-size:14px}
.lang label{font-weight:600}
select{font:inherit;color:var(--fg);background:var(--card);border:1px solid var(--muted);border-radius:8px;padding:6px 8px;min-height:40px}
select:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
pre{background:#0f172a;color:#e2e8f0;border:1px solid var(--line);border-radius:10px;padding:14px;overflow:auto;max-width:100%;font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0}
pre:focus-visible{outline:3px solid #60a5fa;outline-offset:2px}
#events{list-style:none;margin:0;padding:0;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;max-height:220px;overflow:auto}
#events li{border-top:1px solid var(--line);padding:6px 0;word-break:break-all}
#events li:first-child{border-top:0}
.notice{background:var(--warn-bg);color:var(--warn);border:1px solid var(--warn-line);border-radius:10px;padding:10px 14px;margin:0 0 20px}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;padding:6px 8px;border-top:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}
.app{margin:0 0 20px}
.app-head{display:flex;justify-content:space-between;gap:16px;flex-wrap:wrap;align-items:baseline;border-bottom:1px solid var(--line);padding-bottom:12px;margin-bottom:12px}
.app-head h2{margin:0}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:20px}
.evt{font-size:15px;margin:18px 0 6px}
.after{margin:12px 0 0}
.sec,.cols h3{font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 8px}
.sec{margin-top:18px}
.skills{display:flex;flex-wrap:wrap;gap:6px;margin:0;padding:0;list-style:none}
.badge{display:inline-block;border-radius:6px;padding:0 6px;font-size:12px;font-weight:600}
.badge.ok{background:var(--ok-bg);color:var(--ok)}
.badge.no{background:var(--soft);color:var(--muted)}
.letter{white-space:pre-wrap;background:var(--soft);border:1px solid var(--line);border-radius:10px;padding:10px 12px;margin:0}
code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);border-radius:6px;padding:1px 6px;overflow-wrap:anywhere}
pre code{background:none;padding:0;color:inherit;border-radius:0}
`;

function page(res: Response, options: { title: string; body: string; nonce: string; csp: string }): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', options.csp);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(options.title)}</title><style nonce="${options.nonce}">${CSS}</style></head>
<body>${options.body}</body></html>`);
}

function header(organizationName: string): string {
  return `<header><div class="in"><span class="logo">${e(organizationName)} · Careers</span>
<nav aria-label="Demo"><a href="/demo">Listing</a> &nbsp;·&nbsp; <a href="/demo/pipeline">Pipeline</a> &nbsp;·&nbsp; <a href="/v1/openapi.json">API</a></nav></div></header>`;
}

function noDemo(res: Response, nonce: string): void {
  page(res, {
    title: 'No demo organization',
    nonce,
    csp: `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    body: `${header('hiring-integrations')}<main><div class="card"><h1>No demo organization yet</h1>
<p>Run <code>npm start</code>: it seeds a demo organization with an open listing and prints its id and API key.</p></div></main>`,
  });
}

function demoPage(host: Host, res: Response, demo: DemoCredentials, listing: Listing | undefined, organizationName: string, hostMismatch: boolean): void {
  const nonce = newNonce();
  const { config } = host;
  const scriptUrl = `${config.cdnUrl.replace(/\/+$/, '')}/widgets/profile-apply.js`;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' ${originOf(scriptUrl)}`,
    `connect-src ${originOf(config.baseUrl)}`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const snippet = `<script src="${scriptUrl}" async></script>\n<profile-apply\n  organization-id="${demo.organization_id}"\n  listing-id="${demo.listing_id}"\n  theme="light"></profile-apply>`;
  const questions = listing?.questions ?? [];
  const body = `${header(organizationName)}
<main>
${hostMismatch ? `<p class="notice" role="note">This page is open on another address than <code>BASE_URL</code>. The demo organization allows the widget on <a href="${e(config.baseUrl)}/demo">${e(config.baseUrl)}/demo</a> only; open that to apply.</p>` : ''}
<div class="grid">
<article class="card">
<h1>${e(listing?.title ?? 'Job listing')}</h1>
<ul class="meta" aria-label="About the role"><li class="chip">Remote</li><li class="chip">Full-time</li><li class="chip">${e(organizationName)}</li></ul>
<p>We are looking for an engineer who enjoys building reliable services: APIs that are pleasant to use, data that stays correct, and systems that are easy to operate.</p>
<h2>What you will do</h2>
<ul><li>Design and build services in TypeScript and PostgreSQL.</li><li>Own features from the first sketch to production, with tests.</li><li>Improve how we deploy, observe and scale.</li></ul>
<h2>Apply with your profile</h2>
<p>No resume needed: authorize sharing of your verified profile and we import your skills, credentials and work history.${questions.length ? ` We will also ask ${questions.length} short question${questions.length === 1 ? '' : 's'}.` : ''}</p>
<h2>Embed it on your own page</h2>
<p class="muted small">Add your page's origin to <code>profile_apply.allowed_origins</code> (PATCH /v1/organization/settings), then paste:</p>
<pre tabindex="0" role="region" aria-label="Embed code"><code>${e(snippet)}</code></pre>
</article>
<aside aria-label="Apply">
<profile-apply id="apply" organization-id="${e(demo.organization_id)}" listing-id="${e(demo.listing_id)}" theme="light"></profile-apply>
<div class="card">
<fieldset class="themes"><legend>Widget theme</legend>
<label><input type="radio" name="theme" value="light" checked> Light</label>
<label><input type="radio" name="theme" value="dark"> Dark</label>
<label><input type="radio" name="theme" value="auto"> Auto</label></fieldset>
<p class="lang"><label for="lang">Widget language</label> <select id="lang"><option value="">This page's (English)</option><option value="es" lang="es">Español</option><option value="fr" lang="fr">Français</option><option value="de" lang="de">Deutsch</option><option value="pt-BR" lang="pt-BR">Português (Brasil)</option><option value="ar" lang="ar">العربية</option></select></p>
<h2 class="evt" id="events-title">Events</h2>
<ul id="events" aria-labelledby="events-title"><li class="muted">profile-apply:* events appear here.</li></ul>
<p class="small muted after">After applying, see the application in the <a href="/demo/pipeline">pipeline</a>.</p>
</div>
</aside>
</div>
</main>
<script src="${e(scriptUrl)}" async></script>
<script nonce="${nonce}">
(function(){
  var el=document.getElementById('apply'),log=document.getElementById('events'),first=true;
  document.querySelectorAll('input[name=theme]').forEach(function(r){r.addEventListener('change',function(){el.setAttribute('theme',r.value);});});
  document.getElementById('lang').addEventListener('change',function(e){var v=e.target.value;if(v)el.setAttribute('lang',v);else el.removeAttribute('lang');});
  ['authorized','submitted','error','cancel'].forEach(function(t){
    el.addEventListener('profile-apply:'+t,function(ev){
      if(first){log.textContent='';first=false;}
      var li=document.createElement('li');li.textContent='profile-apply:'+t+' '+JSON.stringify(ev.detail);log.prepend(li);
    });
  });
})();
</script>`;
  page(res, { title: `${listing?.title ?? 'Job listing'} · ${organizationName}`, body, nonce, csp });
}

function applicationCard(entry: PipelineEntry, listing: Listing | undefined): string {
  const app: PipelineApplication = entry.application;
  const labels = new Map((listing?.questions ?? []).map((q) => [q.key, q.label]));
  const profileUrl = httpUrl(app.profileUrl);
  const skills = app.importedSkills ?? [];
  const credentials = app.importedCredentials ?? [];
  const experience = app.experienceSummary;
  // Applications delivered before work history was carried have none.
  const workHistory = app.workHistory ?? [];
  const answers = Object.entries(app.answers ?? {});
  const answerText = (v: unknown) => (v === true ? 'Yes' : v === false ? 'No' : String(v));
  return `<section class="card app" aria-labelledby="h-${e(entry.applicationId)}" data-application-id="${e(entry.applicationId)}">
<div class="app-head"><h2 id="h-${e(entry.applicationId)}">${e(app.candidateName || entry.profileUserId)}</h2>
<span class="muted small">${e(listing?.title ?? entry.listingId)} · <span class="chip">${e(entry.stage)}</span> · received ${e(entry.receivedAt.toISOString().replace('T', ' ').slice(0, 16))} UTC</span></div>
<p class="small muted">Application <code>${e(entry.applicationId)}</code> · candidate <code>${e(entry.profileUserId)}</code>${profileUrl ? ` · <a href="${e(profileUrl)}" rel="noopener noreferrer" target="_blank">profile</a>` : ''}</p>
<div class="cols">
<div><h3>Experience</h3>${
    experience
      ? `<p>${e(experience.current_title || '—')}${experience.current_company ? ` at ${e(experience.current_company)}` : ''}<br><span class="muted">${e(experience.total_years)} year${Number(experience.total_years) === 1 ? '' : 's'} in total</span></p>`
      : '<p class="muted">Not shared</p>'
  }</div>
<div><h3>Skills (${skills.length})</h3>${skills.length ? `<ul class="skills">${skills.map((s) => `<li class="chip">${e(s)}</li>`).join('')}</ul>` : '<p class="muted">None imported</p>'}</div>
</div>
<h3 class="sec">Credentials (${credentials.length})</h3>
${
  credentials.length
    ? `<table><thead><tr><th scope="col">Credential</th><th scope="col">Issuer</th><th scope="col">Issued</th><th scope="col">Status</th></tr></thead><tbody>${credentials
        .map(
          (c) =>
            `<tr><td>${e(c.title)}</td><td>${e(c.issuer)}</td><td>${e(c.issued_at)}</td><td>${c.verified ? '<span class="badge ok">Verified</span>' : '<span class="badge no">Unverified</span>'}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">None imported</p>'
}
<h3 class="sec">Work history (${workHistory.length})</h3>
${
  workHistory.length
    ? `<table><thead><tr><th scope="col">Title</th><th scope="col">Company</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Status</th></tr></thead><tbody>${workHistory
        .map(
          (p) =>
            `<tr><td>${e(p.title)}</td><td>${e(p.company)}</td><td>${e(p.start_date)}</td><td>${p.end_date ? e(p.end_date) : 'present'}</td><td>${p.verified === true ? '<span class="badge ok">Verified</span>' : p.verified === false ? '<span class="badge no">Unverified</span>' : '<span class="muted">—</span>'}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">None imported</p>'
}
${answers.length ? `<h3 class="sec">Answers</h3><table><tbody>${answers.map(([k, v]) => `<tr><th scope="row">${e(labels.get(k) ?? k)}</th><td>${e(answerText(v))}</td></tr>`).join('')}</tbody></table>` : ''}
${app.coverLetter ? `<h3 class="sec">Cover letter</h3><p class="letter">${e(app.coverLetter)}</p>` : ''}
</section>`;
}

async function pipelinePage(host: Host, res: Response, demo: DemoCredentials, organizationName: string): Promise<void> {
  const nonce = newNonce();
  const entries = await host.pipeline.listForOrganization(demo.organization_id, 100);
  const listings = new Map<string, Listing | undefined>();
  for (const entry of entries) if (!listings.has(entry.listingId)) listings.set(entry.listingId, await host.listings.get(entry.listingId));
  const body = `${header(organizationName)}
<main>
<h1>Hiring pipeline</h1>
<p class="muted">${entries.length} application${entries.length === 1 ? '' : 's'} delivered to ${e(organizationName)}, newest first. Delivery runs in the background, so a new application can take a moment: <a href="/demo/pipeline">refresh</a>.</p>
${entries.length ? entries.map((entry) => applicationCard(entry, listings.get(entry.listingId))).join('\n') : '<div class="card"><p>No applications yet. <a href="/demo">Apply on the demo listing</a> with a sandbox candidate.</p></div>'}
</main>`;
  page(res, {
    title: `Pipeline · ${organizationName}`,
    body,
    nonce,
    csp: `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  });
}

export function hostRoutes(host: Host, options: HostRoutesOptions = {}): Router[] {
  const router = Router();
  const icon = favicon();
  router.get('/favicon.ico', (_req, res) => {
    res.setHeader('Content-Type', 'image/x-icon');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.send(icon);
  });
  if (host.config.env === 'production' || options.enabled === false) {
    router.get('/', (_req, res) => res.redirect(302, '/v1/openapi.json'));
    return [router];
  }
  const demoSource = options.demo ?? (() => demoFromDataDir(host.config.dataDir));
  // demo.ts names the organization; the host does not read the plugin's tables.
  const organizationName = async (_organizationId: string): Promise<string> => DEMO_ORGANIZATION_NAME;

  router.get('/', (_req, res) => res.redirect(302, '/demo'));
  router.get('/demo', async (req, res, next) => {
    try {
      const demo = demoSource();
      if (!demo) return noDemo(res, newNonce());
      const listing = await host.listings.get(demo.listing_id);
      const requestOrigin = `${req.protocol}://${req.get('host') ?? ''}`;
      demoPage(host, res, demo, listing, await organizationName(demo.organization_id), requestOrigin !== originOf(host.config.baseUrl));
    } catch (error) {
      next(error);
    }
  });
  router.get('/demo/pipeline', async (_req, res, next) => {
    try {
      const demo = demoSource();
      if (!demo) return noDemo(res, newNonce());
      await pipelinePage(host, res, demo, await organizationName(demo.organization_id));
    } catch (error) {
      next(error);
    }
  });
  return [router];
}
