/**
 * Meeting links: the Jitsi connector's per-participant JWTs verified with jose (claims,
 * moderator for interviewers, a wrong secret refused), its connection test against a real
 * HTTP server (Debian's python3 http.server serving a directory) and nothing listening; the
 * room-URL template connector end to end: a verified connection, interview.scheduled fired,
 * the run succeeded with the room as its reference and the link in the handler's report.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jwtVerify, decodeJwt } from 'jose';
import { jitsiConnector } from '../../src/connectors/jitsi';
import { JitsiMeetingConnector } from '../../src/connectors/jitsi/jitsi-meetings';
import { activateLicense } from '../helpers/hooks';
import { freePort, waitForHttp } from '../helpers/processes';
import { startTestHost, type TestHost } from '../helpers/test-host';

const SECRET = 'a-jitsi-app-secret-of-at-least-32-chars';
const startsAt = new Date('2026-12-01T15:00:00Z');

describe('video meetings: Jitsi JWT rooms and room-URL templates', function () {
  this.timeout(60_000);
  let web: ChildProcess;
  let webPort: number;
  let t: TestHost;

  before(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'hi-meet-'));
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>not a meeting site</title>');
    webPort = await freePort();
    web = spawn('/usr/bin/python3', ['-m', 'http.server', '--bind', '127.0.0.1', '--directory', root, String(webPort)], { stdio: 'ignore' });
    await waitForHttp(`http://127.0.0.1:${webPort}/`);
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
  });
  after(async () => {
    await t?.close();
    web?.kill('SIGTERM');
  });

  const settings = jitsiConnector.settings.parse({ base_url: 'https://meet.example.com/acme', app_id: 'hiring', room_prefix: 'acme' });
  const request = (idempotencyKey: string) => ({
    organizationId: 'org_1',
    actionKey: 'video_meetings.create_meeting_link',
    idempotencyKey,
    title: 'Onsite interview',
    startsAt,
    durationMinutes: 45,
    attendees: [
      { name: 'Ada Lovelace', email: 'ada@example.com', role: 'guest' as const },
      { name: 'Grace Hopper', email: 'grace@acme.example', role: 'host' as const },
    ],
  });

  it('Jitsi: one link per participant whose JWT verifies with the app secret and names room, aud, iss, sub, nbf, exp and the moderator', async () => {
    const meeting = await new JitsiMeetingConnector(settings, { app_secret: SECRET }).createMeeting(request('meeting-org_1-int_1'));
    assert.match(meeting.meetingId, /^acme-[0-9a-f]{24}$/);
    assert.equal(meeting.joinUrl, `https://meet.example.com/acme/${meeting.meetingId}`);
    assert.equal(meeting.participants?.length, 2);
    const [candidate, interviewer] = meeting.participants!;
    for (const [participant, moderator] of [
      [candidate!, false],
      [interviewer!, true],
    ] as const) {
      const url = new URL(participant.joinUrl);
      assert.equal(url.origin + url.pathname, meeting.joinUrl);
      const token = url.searchParams.get('jwt')!;
      const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET), {
        issuer: 'hiring',
        audience: 'jitsi',
        subject: 'meet.example.com',
        algorithms: ['HS256'],
        currentDate: new Date(startsAt.getTime() + 10 * 60_000),
      });
      assert.equal(protectedHeader.alg, 'HS256');
      assert.equal(payload.room, meeting.meetingId);
      assert.equal(payload.exp, startsAt.getTime() / 1000 + (45 + 60) * 60);
      assert.equal(payload.nbf, startsAt.getTime() / 1000 - 30 * 60);
      assert.deepEqual((payload.context as any).user, { name: participant.name, email: participant.email, moderator });
    }
    // A wrong secret, or a token used after the meeting plus its grace, is refused.
    const token = new URL(candidate!.joinUrl).searchParams.get('jwt')!;
    await assert.rejects(jwtVerify(token, new TextEncoder().encode('another-secret-of-at-least-32-characters')), /signature/);
    await assert.rejects(jwtVerify(token, new TextEncoder().encode(SECRET), { currentDate: new Date(startsAt.getTime() + 3 * 3600_000) }), /exp/);
    // Stable for a retry (same idempotency key), another room for another interview, unguessable without the secret.
    const again = await new JitsiMeetingConnector(settings, { app_secret: SECRET }).createMeeting(request('meeting-org_1-int_1'));
    assert.equal(again.meetingId, meeting.meetingId);
    const other = await new JitsiMeetingConnector(settings, { app_secret: SECRET }).createMeeting(request('meeting-org_1-int_2'));
    assert.notEqual(other.meetingId, meeting.meetingId);
    const otherSecret = await new JitsiMeetingConnector(settings, { app_secret: `${SECRET}-2` }).createMeeting(request('meeting-org_1-int_1'));
    assert.notEqual(otherSecret.meetingId, meeting.meetingId);
    assert.equal(decodeJwt(token).sub, 'meet.example.com');
  });

  it('Jitsi settings: a short secret or a bad URL is refused; the connection test tells a non-Jitsi site and nothing listening apart', async () => {
    assert.equal(jitsiConnector.credentials.safeParse({ app_secret: 'short' }).success, false);
    assert.equal(jitsiConnector.settings.safeParse({ base_url: 'ftp://meet.example.com', app_id: 'x' }).success, false);
    const notJitsi = await jitsiConnector.test(jitsiConnector.settings.parse({ base_url: `http://127.0.0.1:${webPort}`, app_id: 'hiring' }), {
      app_secret: SECRET,
    });
    assert.equal(!notJitsi.ok && notJitsi.code, 'connection_protocol_error', JSON.stringify(notJitsi));
    const closed = await freePort();
    const unreachable = await jitsiConnector.test(jitsiConnector.settings.parse({ base_url: `http://127.0.0.1:${closed}`, app_id: 'hiring' }), {
      app_secret: SECRET,
    });
    assert.equal(!unreachable.ok && unreachable.code, 'connection_unreachable', JSON.stringify(unreachable));
  });

  it('room-URL template: a verified connection, interview.scheduled → a succeeded run whose reference is the room, the link in the report', async () => {
    const acme = await t.createOrganization('Acme');
    await activateLicense(t, acme.apiKey, 'video_meetings.create_meeting_link');
    const bad = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'meeting_url_template',
        settings: { template: 'https://meet.example.com/no-placeholder' },
        credentials: { room_secret: 'x'.repeat(20) },
      },
    });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.error.param, /template/);
    const closed = await freePort();
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'meeting_url_template',
        settings: { template: `http://127.0.0.1:${closed}/{room}`, room_prefix: 'int' },
        credentials: { room_secret: 'a-room-secret-of-our-own' },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.kind, 'video_meetings');
    const unreachable = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
    assert.equal(unreachable.body.ok, false, unreachable.text);
    assert.equal(unreachable.body.code, 'connection_unreachable');
    const patched = await t.request('PATCH', `/v1/integrations/connections/${created.body.id}`, {
      auth: acme.apiKey,
      body: { settings: { template: `http://127.0.0.1:${webPort}/{room}`, room_prefix: 'int' } },
    });
    assert.equal(patched.status, 200, patched.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
    const fired = await t.request('POST', '/host/v1/hooks/interview.scheduled', {
      auth: t.operatorKey,
      body: {
        organization_id: acme.organizationId,
        payload: {
          interview_id: 'int_42',
          candidate: { name: 'Ada Lovelace', email: 'ada@example.com' },
          interviewers: [{ name: 'Grace Hopper', email: 'grace@acme.example' }],
          starts_at: startsAt.toISOString(),
        },
      },
    });
    assert.equal(fired.status, 200, fired.text);
    const report = JSON.stringify(fired.body);
    const room = /"meeting_id":"(int-[0-9a-f]{20})"/.exec(report)?.[1];
    assert.ok(room, report);
    assert.ok(report.includes(`http://127.0.0.1:${webPort}/${room}`), report);
    const runs = await t.request('GET', '/v1/integrations/runs?action=video_meetings.create_meeting_link', { auth: acme.apiKey });
    assert.equal(runs.body.data.length, 1, runs.text);
    assert.equal(runs.body.data[0].status, 'succeeded');
    assert.equal(runs.body.data[0].connector, 'meeting_url_template');
    assert.equal(runs.body.data[0].reference, room);
    assert.equal(runs.body.data[0].livemode, true);
    assert.ok(!runs.text.includes('ada@example.com'), 'the run holds no candidate data');
  });
});
