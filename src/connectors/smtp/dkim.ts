/**
 * DKIM signing is optional: dkim_domain + dkim_selector in the settings, the PEM key in the
 * credentials. The connection test refuses a half configuration or a key that does not
 * parse before any message is signed with it (nodemailer would fail each send instead).
 */
import { createPrivateKey } from 'node:crypto';
import type { SmtpCredentials, SmtpSettings } from './settings';

export function dkimProblem(settings: SmtpSettings, credentials: SmtpCredentials): { code: string; message: string } | undefined {
  const key = credentials.dkim_private_key;
  if (!settings.dkim_domain) {
    return key ? { code: 'dkim_incomplete', message: 'A DKIM key was given without dkim_domain and dkim_selector in the settings' } : undefined;
  }
  if (!key) return { code: 'dkim_incomplete', message: 'DKIM is configured (dkim_domain) but the credentials have no dkim_private_key' };
  try {
    const parsed = createPrivateKey(key);
    if (parsed.asymmetricKeyType !== 'rsa' && parsed.asymmetricKeyType !== 'ed25519')
      return { code: 'dkim_key_invalid', message: `DKIM keys are RSA or Ed25519, not ${parsed.asymmetricKeyType}` };
  } catch {
    return { code: 'dkim_key_invalid', message: 'The DKIM private key is not a readable PEM private key' };
  }
  return undefined;
}
