/** Mounted at /v1/verifications: send a code (sms, email), check it, read one verification. */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { MAX_CHECK_ATTEMPTS, type Verification } from '../domain/verification';
import type { VerificationService } from '../domain/verification-service';
import { TOTP_MAX_FAILED_ATTEMPTS, type TotpFactor } from '../domain/totp-factor';
import type { TotpEnrollment, TotpFactors } from '../domain/totp-factors';
import { checkVerificationBody, createVerificationBody, verificationCheckSchema, verificationSchema } from './verification-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export function verificationRoutes(service: VerificationService, totp: TotpFactors): RouteDefinition<any, any, any>[] {
  const factorView = (f: TotpFactor, enrollment?: TotpEnrollment): z.output<typeof verificationSchema> => {
    const expiry = totp.enrollmentExpiry(f);
    return {
      id: f.id,
      object: 'verification',
      channel: 'totp',
      status: f.status === 'verified' ? 'approved' : totp.enrollmentLapsed(f) ? 'expired' : 'pending',
      attempts: Math.min(f.failedAttempts, TOTP_MAX_FAILED_ATTEMPTS),
      run_id: null,
      livemode: true,
      created_at: f.createdAt.toISOString(),
      expires_at: f.status === 'verified' ? null : expiry.toISOString(),
      ...(enrollment ? { totp: { uri: enrollment.uri, qr_svg: enrollment.qrSvg, secret: enrollment.secret } } : {}),
    };
  };
  const view = (v: Verification): z.output<typeof verificationSchema> => ({
    id: v.id,
    object: 'verification',
    channel: v.channel,
    status: service.visibleStatus(v) as z.output<typeof verificationSchema>['status'],
    attempts: Math.min(v.attempts, MAX_CHECK_ATTEMPTS),
    run_id: v.runId,
    livemode: v.livemode,
    created_at: v.createdAt.toISOString(),
    expires_at: v.expiresAt.toISOString(),
  });
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createVerification',
      summary:
        'Send a 6-digit code by SMS or email (valid 10 minutes, at most 5 sends per destination every 10 minutes), or enroll a TOTP factor (otpauth:// URI and QR code, shown once) — sms.two_factor_auth',
      tags: ['verifications'],
      auth: ['organization'],
      // No Idempotency-Key replay: a replayed answer would not send the code a retry wants.
      body: createVerificationBody,
      status: 201,
      response: verificationSchema,
      errors: [409, 429, 503],
      handler: async ({ principal, body }) => {
        if (body.channel === 'totp') {
          await service.requireLicense(orgId(principal));
          const enrollment = await totp.enroll(orgId(principal), body.to, body.issuer ?? 'Hiring');
          return reply(201, factorView(enrollment.factor, enrollment));
        }
        return reply(201, view(await service.send(orgId(principal), body)));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/check',
      operationId: 'checkVerification',
      summary: "Check a code against the destination's newest pending verification: approved, pending (wrong code), expired or max_attempts_reached",
      tags: ['verifications'],
      auth: ['organization'],
      body: checkVerificationBody,
      response: verificationCheckSchema,
      // resource_missing: no code was sent to this destination, or it was already approved.
      errors: [404],
      handler: async ({ principal, body }) => {
        if (body.channel === 'totp') {
          await service.requireLicense(orgId(principal));
          const { factor, status } = await totp.check(orgId(principal), body.to, body.code);
          return {
            object: 'verification_check' as const,
            verification_id: factor.id,
            status,
            attempts_remaining: status === 'pending' ? Math.max(0, TOTP_MAX_FAILED_ATTEMPTS - factor.failedAttempts) : 0,
          };
        }
        const { verification, status } = await service.check(orgId(principal), body.to, body.code);
        return {
          object: 'verification_check' as const,
          verification_id: verification.id,
          status,
          attempts_remaining: status === 'pending' ? Math.max(0, MAX_CHECK_ATTEMPTS - verification.attempts) : 0,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:verification_id',
      operationId: 'getVerification',
      summary: 'One verification (never its code or destination)',
      tags: ['verifications'],
      auth: ['organization'],
      params: z.object({ verification_id: z.string().max(100) }),
      response: verificationSchema,
      handler: async ({ principal, params }) =>
        params.verification_id.startsWith('totp_')
          ? factorView(await totp.get(orgId(principal), params.verification_id))
          : view(await service.get(orgId(principal), params.verification_id)),
    }),
  ];
}
