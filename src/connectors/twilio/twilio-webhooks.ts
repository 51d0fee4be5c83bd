/**
 * What Twilio posts back for one organization's `twilio` connection, mounted at
 * /v1/sms/twilio (no API key: Twilio signs each request with the connection's Auth Token):
 *
 *   POST /{organization_id}/{connection_id}/status    delivery status callback (MessageSid, MessageStatus, ErrorCode)
 *   POST /{organization_id}/{connection_id}/inbound   an incoming message (STOP / START opt the sender out / in)
 *
 * The signature is checked against the URL Twilio was given (the connection's
 * status_callback_url, or this plugin's BASE_URL and the path). No signature: 400
 * `webhook_signature_missing`; a wrong one: 403 `webhook_signature_invalid`.
 */
import express, { Router, type Request } from 'express';
import { DomainError, forbidden, invalid, notFound } from '../../kernel/errors';
import { notFoundHandler } from '../../platform/http/errors';
import type { ApiRouter } from '../../platform/http/route';
import type { RouterKit } from '../../platform/http/router-kit';
import type { ConnectionRepository } from '../../features/connections/domain/connection';
import { fromTwilioStatus } from '../../features/sms/domain/delivery-status';
import type { SmsInboundSink } from '../../features/sms/domain/sms-inbound';
import { twilioCredentials, twilioSettings } from './settings';
import { twilioWebhookPath, validTwilioSignature } from './twilio-signature';

export interface TwilioWebhookDeps {
  connections: ConnectionRepository;
  inbound: SmsInboundSink;
  publicBaseUrl: string;
  now: () => Date;
}

type Form = Record<string, string | string[]>;
const field = (form: Form, name: string): string | undefined => {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
};

export function twilioWebhookRouter(deps: TwilioWebhookDeps, kit: RouterKit): ApiRouter {
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  const form = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 });

  /** The organization id the signature proved, with the form Twilio signed. */
  const verified = async (req: Request, kind: 'status' | 'inbound'): Promise<{ organizationId: string; form: Form }> => {
    const organizationId = String(req.params.organization_id);
    const connectionId = String(req.params.connection_id);
    // Another organization's connection is a 404 like a missing one, whatever else is wrong.
    const connection = /^conn_[0-9A-Za-z]{1,64}$/.test(connectionId) ? await deps.connections.find(organizationId, connectionId) : undefined;
    if (!connection || connection.connector !== 'twilio') throw notFound('connection', connectionId);
    const header = req.get('X-Twilio-Signature');
    if (!header) throw invalid('webhook_signature_missing', 'The X-Twilio-Signature header is missing');
    if (!req.is('application/x-www-form-urlencoded'))
      throw new DomainError('unsupported_media_type', 'unsupported_media_type', 'Twilio posts application/x-www-form-urlencoded bodies');
    const settings = twilioSettings.safeParse(connection.settings);
    const credentials = twilioCredentials.safeParse(await deps.connections.credentialsOf(connection).catch(() => ({})));
    if (!settings.success || !credentials.success)
      throw forbidden('webhook_signature_invalid', 'The connection has no readable Auth Token to check the signature with');
    const own = deps.publicBaseUrl + twilioWebhookPath(organizationId, connectionId, kind);
    const urls = kind === 'status' && settings.data.status_callback_url ? [settings.data.status_callback_url, own] : [own];
    const body = (req.body ?? {}) as Form;
    if (!validTwilioSignature(credentials.data.auth_token, header, urls, body))
      throw forbidden('webhook_signature_invalid', 'The X-Twilio-Signature does not match this connection’s Auth Token and URL');
    if (field(body, 'AccountSid') !== undefined && field(body, 'AccountSid') !== settings.data.account_sid)
      throw forbidden('webhook_signature_invalid', 'The callback names another Twilio account');
    return { organizationId, form: body };
  };

  router.post('/:organization_id/:connection_id/status', form, (req, res, next) => {
    (async () => {
      const { organizationId, form: body } = await verified(req, 'status');
      const sid = field(body, 'MessageSid') ?? field(body, 'SmsSid');
      if (!sid || !/^(SM|MM)[0-9a-fA-F]{32}$/.test(sid)) throw invalid('parameter_invalid', 'MessageSid must be a Twilio Message SID', 'MessageSid');
      const status = fromTwilioStatus(field(body, 'MessageStatus') ?? field(body, 'SmsStatus') ?? '');
      if (!status) throw invalid('parameter_invalid', 'MessageStatus is not a Twilio message status', 'MessageStatus');
      const errorCode = field(body, 'ErrorCode');
      const to = field(body, 'To');
      await deps.inbound.deliveryUpdated({
        organizationId,
        connector: 'twilio',
        reference: sid,
        status,
        errorCode: errorCode && /^\d{1,6}$/.test(errorCode) ? errorCode : null,
        at: deps.now(),
        ...(to && /^\+[1-9]\d{6,14}$/.test(to) ? { recipient: to } : {}),
      });
      res.status(204).end();
    })().catch(next);
  });

  router.post('/:organization_id/:connection_id/inbound', form, (req, res, next) => {
    (async () => {
      const { organizationId, form: body } = await verified(req, 'inbound');
      const from = field(body, 'From');
      if (!from || !/^\+[1-9]\d{6,14}$/.test(from)) throw invalid('parameter_invalid', 'From must be an E.164 number', 'From');
      await deps.inbound.received({ organizationId, connector: 'twilio', from, text: (field(body, 'Body') ?? '').slice(0, 1600), at: deps.now() });
      // Empty TwiML: no reply from us (Twilio itself confirms STOP and START on its numbers).
      res.status(200).type('text/xml').send('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    })().catch(next);
  });

  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'sms-twilio', router, routes: [] };
}
