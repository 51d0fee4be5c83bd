/**
 * Organizations' signing credentials (hi_esign_certificates): the PKCS#12 and its passphrase
 * sealed with AES-256-GCM (key: HKDF purpose `esign-certificate-encryption`, bound to the
 * organization and field), never logged or returned. An organization with none gets a
 * self-signed certificate the first time it signs; two first signatures at once keep one.
 */
import type { Clock } from '../../../kernel/clock';
import type { Database } from '../../../platform/database/database';
import type { TokenCipher } from '../../../platform/security/token-cipher';
import { inspectP12, selfSignedP12 } from '../documents/certificates';
import type { CertificateInfo, SigningCertificates, SigningCredential } from '../domain/ports';

interface Row {
  organization_id: string;
  source: 'uploaded' | 'generated';
  sealed_p12: string;
  sealed_passphrase: string;
  subject: string;
  fingerprint_sha256: string;
  not_after: Date;
  created_at: Date;
}

const info = (r: Row): CertificateInfo => ({
  source: r.source,
  subject: r.subject,
  fingerprintSha256: r.fingerprint_sha256,
  notAfter: new Date(r.not_after),
  createdAt: new Date(r.created_at),
});

export class KnexSigningCertificates implements SigningCertificates {
  constructor(
    private readonly db: Database,
    private readonly cipher: TokenCipher,
    private readonly clock: Clock,
  ) {}

  async credential(organizationId: string, organizationName: string): Promise<SigningCredential> {
    let row = await this.row(organizationId);
    if (!row) {
      const made = selfSignedP12(organizationName, this.clock.now());
      await this.db('hi_esign_certificates')
        .insert(this.sealed(organizationId, 'generated', made.p12, made.passphrase, made))
        .onConflict('organization_id')
        .ignore();
      row = (await this.row(organizationId))!;
    }
    return {
      p12: Buffer.from(this.cipher.decrypt(row.sealed_p12, `${organizationId}:p12`), 'base64'),
      passphrase: this.cipher.decrypt(row.sealed_passphrase, `${organizationId}:passphrase`),
    };
  }

  async info(organizationId: string): Promise<CertificateInfo | undefined> {
    const row = await this.row(organizationId);
    return row ? info(row) : undefined;
  }

  async upload(organizationId: string, p12: Buffer, passphrase: string): Promise<CertificateInfo> {
    const details = inspectP12(p12, passphrase, this.clock.now());
    const values = this.sealed(organizationId, 'uploaded', p12, passphrase, details);
    await this.db('hi_esign_certificates').insert(values).onConflict('organization_id').merge();
    return info((await this.row(organizationId))!);
  }

  async remove(organizationId: string): Promise<boolean> {
    const rows: unknown[] = await this.db('hi_esign_certificates').where({ organization_id: organizationId }).delete().returning('organization_id');
    return rows.length > 0;
  }

  private async row(organizationId: string): Promise<Row | undefined> {
    return this.db('hi_esign_certificates').where({ organization_id: organizationId }).first();
  }

  private sealed(
    organizationId: string,
    source: Row['source'],
    p12: Buffer,
    passphrase: string,
    details: { subject: string; fingerprintSha256: string; notAfter: Date },
  ): Row {
    return {
      organization_id: organizationId,
      source,
      sealed_p12: this.cipher.encrypt(p12.toString('base64'), `${organizationId}:p12`),
      sealed_passphrase: this.cipher.encrypt(passphrase, `${organizationId}:passphrase`),
      subject: details.subject,
      fingerprint_sha256: details.fingerprintSha256,
      not_after: details.notAfter,
      created_at: this.clock.now(),
    };
  }
}
