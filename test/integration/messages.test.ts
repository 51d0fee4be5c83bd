/**
 * Messages end to end. Status updates against a real SMTP server (smtp-server, parsed back with
 * mailparser): `application.stage_changed` sends the candidate one message per change, in
 * their language, DKIM-signed (verified with mailauth from the bytes that arrived), with
 * RFC 8058 one-click unsubscribe headers; the unsubscribe page works, a changed token is a
 * 400 page, and an unsubscribed candidate gets no more status updates. Call sheets: each
 * person's PDF (read back with pdftotext, Debian's poppler-utils) by email and a signed link
 * by SMS, a confirmation through the signed link (call_sheet.confirmed), a reminder to
 * those who did not confirm by confirm_by.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { activateLicense } from '../helpers/hooks';
import { waitFor } from '../helpers/profile-flow';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ACTION = 'notifications.status_update';

describe('messages: status updates with one-click unsubscribe, call sheets with confirmations', function () {
  this.timeout(60_000);
  let t: TestHost;
  let smtp: TestSmtpServer;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const dkimRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
  let unsubscribeUrl: string;

  const fire = (organizationId: string, payload: Record<string, unknown>) =>
    t.request('POST', '/host/v1/hooks/application.stage_changed', { auth: t.operatorKey, body: { organization_id: organizationId, payload } });
  const change = (id: string, extra: Record<string, unknown> = {}) => ({
    change_id: id,
    application_id: 'app_77',
    candidate: { name: 'Lucía Pérez', email: 'Lucia@example.com', language: 'es-MX' },
    stage: 'Entrevista',
    job_title: 'Ingeniera de datos',
    ...extra,
  });
  const outcome = (response: { body: { outcomes: { handler: string; status: string; reason?: string; result?: any }[] } }) =>
    response.body.outcomes.find((o) => o.handler === 'status-update')!;

  before(async () => {
    smtp = await startSmtpServer();
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
    await Promise.all([activateLicense(t, acme.apiKey, ACTION), activateLicense(t, acme.apiKey, 'notifications.call_sheet_distribution')]);
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'smtp',
        settings: {
          host: 'localhost',
          port: smtp.port,
          security: 'starttls',
          from_email: 'jobs@acme.example',
          tls_ca: smtp.certificate,
          dkim_domain: 'acme.example',
          dkim_selector: 'hi2026',
        },
        credentials: { dkim_private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
      },
    });
    assert.equal(created.status, 201, created.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('DKIM half configured or with a key that is not one: the connection test names it', async () => {
    const refused = await t.request('POST', '/v1/integrations/connections', {
      auth: globex.apiKey,
      body: {
        connector: 'smtp',
        settings: { host: 'localhost', port: smtp.port, from_email: 'a@globex.example', dkim_domain: 'globex.example' },
        credentials: {},
      },
    });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error.param, 'settings.dkim_selector');
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: globex.apiKey,
      body: {
        connector: 'smtp',
        settings: { host: 'localhost', port: smtp.port, from_email: 'a@globex.example', dkim_domain: 'globex.example', dkim_selector: 's1' },
        credentials: {},
      },
    });
    assert.equal(created.status, 201, created.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: globex.apiKey });
    assert.equal(tested.body.ok, false);
    assert.equal(tested.body.code, 'dkim_incomplete');
    const badKey = await t.request('PATCH', `/v1/integrations/connections/${created.body.id}`, {
      auth: globex.apiKey,
      body: { credentials: { dkim_private_key: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----' } },
    });
    assert.equal(badKey.status, 200, badKey.text);
    const again = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: globex.apiKey });
    assert.equal(again.body.code, 'dkim_key_invalid');
  });

  it('a stage change sends one Spanish, DKIM-signed message with one-click unsubscribe headers; the same change again sends nothing', async () => {
    const first = await fire(acme.organizationId, change('chg_1', { note: 'Trae tu <b>portátil</b>' }));
    assert.equal(first.status, 200, first.text);
    assert.equal(outcome(first).status, 'ran', first.text);
    assert.equal(outcome(first).result.status, 'sent');
    assert.equal(smtp.received.length, 1);
    const mail = smtp.received[0]!;
    assert.deepEqual(mail.envelope.to, ['Lucia@example.com']);
    assert.equal(mail.parsed.subject, 'Tu candidatura: Entrevista');
    assert.equal(mail.parsed.headers.get('content-language'), 'es-MX');
    assert.match(mail.parsed.text ?? '', /tu candidatura para Ingeniera de datos ha pasado a: Entrevista/);
    assert.match(String(mail.parsed.html), /<html lang="es-MX" dir="ltr">/);
    assert.match(String(mail.parsed.html), /Trae tu &lt;b&gt;portátil&lt;\/b&gt;/, 'the note is escaped in HTML');
    assert.match(String(mail.parsed.html), /recibes este mensaje porque enviaste una candidatura a Acme/i);
    const header = (key: string) =>
      mail.parsed.headerLines
        .find((h) => h.key === key)
        ?.line.replace(/^[^:]+:\s*/, '')
        .replace(/\r?\n\s+/g, '');
    assert.equal(header('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
    const listUnsubscribe = /^<(.+)>$/.exec(header('list-unsubscribe') ?? '')?.[1] ?? '';
    assert.match(listUnsubscribe, new RegExp(`^${t.baseUrl}/v1/messages/unsubscribe\\?token=`));
    assert.ok((mail.parsed.text ?? '').includes(listUnsubscribe), 'the text part links to the same page');
    unsubscribeUrl = listUnsubscribe;

    const verified = await dkimVerify(mail.raw, {
      resolver: async (name: string, type: string) => {
        if (name === 'hi2026._domainkey.acme.example' && type === 'TXT') return [[dkimRecord]];
        throw Object.assign(new Error('NXDOMAIN'), { code: 'ENOTFOUND' });
      },
    } as never);
    const signature = verified.results[0]!;
    assert.equal(signature.status.result, 'pass', JSON.stringify(signature.status));
    assert.equal(signature.signingDomain, 'acme.example');

    const again = await fire(acme.organizationId, change('chg_1'));
    assert.equal(outcome(again).result.unchanged, true);
    assert.equal(smtp.received.length, 1, 'one message per change');
    const runs = await t.request('GET', `/v1/integrations/runs?action=${ACTION}`, { auth: acme.apiKey });
    assert.equal(runs.body.data.length, 1);
    assert.equal(runs.body.data[0].status, 'succeeded');
    assert.equal(runs.body.data[0].reference, mail.queueId);
  });

  it('the unsubscribe page: GET shows one button and changes nothing; a changed token is a 400 page', async () => {
    const shown = await fetch(unsubscribeUrl);
    assert.equal(shown.status, 200);
    const html = await shown.text();
    assert.match(html, /<html lang="es-MX" dir="ltr">/);
    assert.match(html, /<form method="post"[^>]*><button class="primary" type="submit">Darme de baja<\/button><\/form>/);
    assert.match(html, /l\*\*\*@example\.com/, 'the address, masked');
    assert.equal(
      await t.database
        .db('hi_message_unsubscribes')
        .count({ n: '*' })
        .first()
        .then((r: any) => Number(r.n)),
      0,
    );
    const [base, token] = unsubscribeUrl.split('?token=') as [string, string];
    const tampered = `${base}?token=${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}x`;
    for (const url of [tampered, `${base}?token=`, `${base}?token=${token.split('.')[0]}`]) {
      const refused = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      assert.equal(refused.status, 400, url);
      assert.equal(refused.headers.get('x-error-code'), 'link_invalid');
      assert.match(await refused.text(), /This link does not work/);
    }
  });

  it('a one-click POST unsubscribes (idempotently); the next change is suppressed, nothing sent', async () => {
    for (let i = 0; i < 2; i += 1) {
      const done = await fetch(unsubscribeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      assert.equal(done.status, 200);
      assert.match(await done.text(), /role="status">Te has dado de baja/);
    }
    const rows = await t.database.db('hi_message_unsubscribes').where({ organization_id: acme.organizationId });
    assert.deepEqual(
      rows.map((r: { email: string; topic: string }) => `${r.email} ${r.topic}`),
      ['lucia@example.com status_updates'],
    );
    const next = await fire(acme.organizationId, change('chg_2', { stage: 'Oferta' }));
    assert.equal(outcome(next).result.status, 'suppressed', next.text);
    assert.equal(smtp.received.length, 1);
  });

  it('bad payloads are refused naming the field; an organization without the license is skipped', async () => {
    const bad = await fire(acme.organizationId, change('chg 3'));
    assert.equal(outcome(bad).status, 'skipped');
    assert.match(outcome(bad).reason!, /^invalid_payload: change_id/);
    const noEmail = await fire(acme.organizationId, { ...change('chg_4'), candidate: { name: 'X' } });
    assert.match(outcome(noEmail).reason!, /^invalid_payload: candidate.email/);
    const unlicensed = await fire(globex.organizationId, change('chg_5'));
    assert.equal(outcome(unlicensed).status, 'skipped');
    assert.equal(outcome(unlicensed).reason, 'license_inactive');
    assert.equal(smtp.received.length, 1);
  });

  const pdfText = (pdf: Buffer) => spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf, encoding: 'utf8' }).stdout;
  const linkIn = (text: string, path: string) => new RegExp(`${t.baseUrl}${path}\\?token=[A-Za-z0-9_.-]+`).exec(text)?.[0] ?? '';

  it('call sheets: a PDF per person by email (and a signed link by SMS), once per day and person', async () => {
    const before = smtp.received.length;
    const day = {
      production_day_id: 'day_12',
      production: 'Les Misérables (reshoot)',
      date: '2031-03-14',
      timezone: 'America/Los_Angeles',
      location: 'Stage 5, 4000 Warner Blvd, Burbank',
      confirm_by: new Date(Date.now() + 2_500).toISOString(),
      people: [
        {
          person_id: 'p_ana',
          name: 'Ana Dupré',
          email: 'ana@example.com',
          phone: '+14155550123',
          language: 'fr',
          role: 'Script supervisor',
          call_time: '06:30',
        },
        { person_id: 'p_bob', name: 'Bob Grip', email: 'bob@example.com', call_time: '07:15' },
      ],
    };
    const fired = await t.request('POST', '/host/v1/hooks/production_day.scheduled', {
      auth: t.operatorKey,
      body: { organization_id: acme.organizationId, payload: day },
    });
    const result = fired.body.outcomes.find((o: { handler: string }) => o.handler === 'call-sheet-distribution');
    assert.equal(result.status, 'ran', fired.text);
    assert.equal(smtp.received.length, before + 2);
    const ana = smtp.received.find((m) => m.envelope.to[0] === 'ana@example.com')!;
    assert.equal(ana.parsed.subject, 'Feuille de service : Les Misérables (reshoot), vendredi 14 mars 2031');
    assert.equal(ana.parsed.headers.get('content-language'), 'fr');
    assert.match(ana.parsed.text ?? '', /votre heure de convocation pour Les Misérables \(reshoot\) est 06:30 \(America\/Los_Angeles\)/);
    assert.equal(ana.parsed.attachments.length, 1);
    const attachment = ana.parsed.attachments[0]!;
    assert.equal(attachment.contentType, 'application/pdf');
    assert.equal(attachment.filename, 'call-sheet-2031-03-14.pdf');
    const text = pdfText(attachment.content);
    for (const expected of ['Feuille de service', 'Les Misérables (reshoot)', 'Ana Dupré', 'Script supervisor', '06:30', 'Stage 5, 4000 Warner Blvd, Burbank'])
      assert.ok(text.includes(expected), `the PDF says ${expected}: ${text}`);
    // SMS: the test-mode sandbox (livemode false) took it; it carries the signed links.
    const sms = await t.database
      .db('hi_connector_deliveries')
      .where({ organization_id: acme.organizationId, action_key: 'notifications.call_sheet_distribution' });
    assert.equal(sms.length, 1);
    const smsText = JSON.stringify(sms[0].request);
    const sheetUrl = linkIn(smsText, '/v1/call_sheets/sheet');
    const viewed = await fetch(sheetUrl);
    assert.equal(viewed.status, 200);
    assert.equal(viewed.headers.get('content-type'), 'application/pdf');
    assert.ok(pdfText(Buffer.from(await viewed.arrayBuffer())).includes('Ana Dupré'));
    // The same day again: nothing sent twice.
    const again = await t.request('POST', '/host/v1/hooks/production_day.scheduled', {
      auth: t.operatorKey,
      body: { organization_id: acme.organizationId, payload: day },
    });
    assert.ok(
      again.body.outcomes[0].result.call_sheets.every((c: { unchanged?: boolean }) => c.unchanged),
      again.text,
    );
    assert.equal(smtp.received.length, before + 2);
  });

  it('call sheets: the signed link confirms once (call_sheet.confirmed); a changed link is a 400 page; who did not confirm is reminded', async () => {
    const ana = smtp.received.find((m) => m.envelope.to[0] === 'ana@example.com')!;
    const confirmUrl = linkIn(ana.parsed.text ?? '', '/v1/call_sheets/confirm');
    const shown = await fetch(confirmUrl);
    assert.equal(shown.status, 200);
    const page = await shown.text();
    assert.match(page, /<html lang="fr" dir="ltr">/);
    assert.match(page, /<button class="primary" type="submit">Je confirme<\/button>/);
    for (let i = 0; i < 2; i += 1) {
      const confirmed = await fetch(confirmUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      assert.equal(confirmed.status, 200);
      assert.match(await confirmed.text(), /role="status">Merci, votre heure de convocation est confirmée/);
    }
    const tampered = await fetch(
      confirmUrl.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
      { method: 'POST' },
    );
    assert.equal(tampered.status, 400);
    assert.equal(tampered.headers.get('x-error-code'), 'link_invalid');
    const confirmedEvents = async () => t.host.hooks.recent.filter((e) => e.hook === 'call_sheet.confirmed');
    const events = await waitFor(async () => ((await confirmedEvents()).length > 0 ? confirmedEvents() : undefined), 'call_sheet.confirmed');
    assert.equal(events.length, 1);
    assert.equal((events[0]!.payload as { person_id: string }).person_id, 'p_ana');
    // At confirm_by, Bob (not confirmed) is reminded, Ana is not.
    const reminder = await waitFor(
      async () => smtp.received.find((m) => m.envelope.to[0] === 'bob@example.com' && /^Please confirm/.test(m.parsed.subject ?? '')),
      'the reminder to Bob',
    );
    assert.match(reminder.parsed.subject!, /^Please confirm: Les Misérables \(reshoot\), Friday, March 14, 2031$/);
    assert.equal(reminder.parsed.attachments.length, 1);
    assert.ok(!smtp.received.some((m) => m.envelope.to[0] === 'ana@example.com' && /Merci de confirmer/.test(m.parsed.subject ?? '')));
  });
});
