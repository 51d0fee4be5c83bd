/**
 * SMTP_URL + SMTP_FROM as the operator's default email connection:
 * smtp://user:pass@host:587 (STARTTLS required), smtps://user:pass@host:465 (implicit TLS),
 * `?security=none` for a relay on the local network that speaks plain SMTP.
 */
import type { DeploymentDefault } from '../../features/connections/domain/connector-resolver';
import { smtpCredentials, smtpSettings } from './settings';

export function smtpDeploymentDefault(smtp: { url: string; from: string }): DeploymentDefault {
  const url = new URL(smtp.url);
  const implicitTls = url.protocol === 'smtps:';
  const security = url.searchParams.get('security') ?? (implicitTls ? 'tls' : 'starttls');
  const named = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(smtp.from);
  const settings = smtpSettings.parse({
    host: url.hostname,
    port: url.port ? Number(url.port) : implicitTls ? 465 : 587,
    security,
    from_email: named ? named[2] : smtp.from.trim(),
    ...(named?.[1] ? { from_name: named[1].replace(/^"|"$/g, '') } : {}),
  });
  const credentials = smtpCredentials.parse(url.username ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : {});
  return { kind: 'email', connector: 'smtp', settings, credentials };
}
