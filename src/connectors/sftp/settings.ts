/** The SFTP connector's settings and credentials: validated by zod, described in OpenAPI and docs/hr-payroll-payouts.md. */
import { z } from 'zod';

export const sftpSettings = z
  .object({
    host: z.string().min(1).max(253).meta({ example: 'sftp.payroll.example' }),
    port: z.number().int().min(1).max(65_535).default(22),
    username: z.string().min(1).max(100),
    directory: z
      .string()
      .min(1)
      .max(500)
      .regex(/^\/(?:[^\0]*[^\0/])?$/, 'expected an absolute path without a trailing slash, e.g. /inbound/hires')
      .refine((path) => !path.split('/').includes('..'), 'expected no .. segments')
      .meta({ description: 'The absolute directory files are delivered into', example: '/inbound' }),
    host_key_sha256: z
      .string()
      .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'expected an OpenSSH SHA-256 fingerprint, e.g. SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8')
      .meta({ description: 'The server host key fingerprint (`ssh-keygen -lf key.pub`): any other key refuses the connection' }),
  })
  .strict();

export const sftpCredentials = z
  .object({ password: z.string().min(1).max(1024) })
  .strict()
  .or(
    z
      .object({
        private_key: z.string().min(1).max(20_000).meta({ description: 'An OpenSSH or PEM private key' }),
        passphrase: z.string().min(1).max(1024).optional(),
      })
      .strict(),
  );

export type SftpSettings = z.output<typeof sftpSettings>;
export type SftpCredentials = z.output<typeof sftpCredentials>;
