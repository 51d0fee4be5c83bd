/**
 * SMS through Twilio Programmable Messaging (or a Twilio-compatible Messages API):
 * `POST /2010-04-01/Accounts/{Sid}/Messages.json`, HTTP basic auth (Account SID, Auth
 * Token), a form body. A message counts as sent when Twilio answered 201 with its Message
 * SID (status `queued`/`accepted`): that SID is the run's reference, and the status callbacks
 * Twilio later posts for it carry the same SID.
 */
import type { Delivery, SmsConnector, SmsMessage } from '../../features/hooks/domain/connectors';
import type { OpenContext } from '../../features/connections/domain/connector-definition';
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { fromTwilioStatus } from '../../features/sms/domain/delivery-status';
import { segmentSms } from '../../features/sms/domain/sms-segments';
import { twilioWebhookPath } from './twilio-signature';
import type { TwilioCredentials, TwilioSettings } from './settings';
import { classifyTwilioAnswer, classifyTwilioNetworkError, twilioFailure, type ClassifiedTwilioError } from './twilio-errors';

const TIMEOUT_MS = 15_000;

export type TwilioAnswer = { ok: true; status: number; body: Record<string, unknown> } | { ok: false; error: ClassifiedTwilioError };

export class TwilioApi {
  constructor(
    private readonly settings: TwilioSettings,
    private readonly credentials: TwilioCredentials,
    /** The pinned network for an organization's connection; the global fetch otherwise. */
    private readonly network?: ConnectorNetwork,
  ) {}

  /** GET /2010-04-01/Accounts/{Sid}.json: the credentials work and the account is there. */
  fetchAccount(): Promise<TwilioAnswer> {
    return this.call('GET', `/2010-04-01/Accounts/${this.settings.account_sid}.json`);
  }

  createMessage(form: Record<string, string>): Promise<TwilioAnswer> {
    return this.call('POST', `/2010-04-01/Accounts/${this.settings.account_sid}/Messages.json`, new URLSearchParams(form));
  }

  private async call(method: 'GET' | 'POST', path: string, form?: URLSearchParams): Promise<TwilioAnswer> {
    const authorization = `Basic ${Buffer.from(`${this.settings.account_sid}:${this.credentials.auth_token}`).toString('base64')}`;
    let response: Response;
    try {
      response = await (this.network?.fetch ?? fetch)(new URL(path, this.settings.api_base_url), {
        method,
        headers: { authorization, accept: 'application/json', ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(form ? { body: form.toString() } : {}),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      return { ok: false, error: classifyTwilioNetworkError(error) };
    }
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = undefined;
    }
    if (!response.ok) return { ok: false, error: classifyTwilioAnswer(response.status, body, response.headers.get('retry-after')) };
    if (!body || typeof body !== 'object')
      return { ok: false, error: { code: 'connection_protocol_error', message: `Twilio answered ${response.status} without a JSON body`, transient: true } };
    return { ok: true, status: response.status, body: body as Record<string, unknown> };
  }
}

export class TwilioSmsConnector implements SmsConnector {
  private readonly api: TwilioApi;
  private readonly statusCallback: string | undefined;

  constructor(
    private readonly settings: TwilioSettings,
    credentials: TwilioCredentials,
    context?: OpenContext,
  ) {
    this.api = new TwilioApi(settings, credentials, context?.network);
    // Twilio posts delivery status to this connection's own endpoint unless the settings name another.
    this.statusCallback =
      settings.status_callback_url ??
      (context?.organizationId && context.connectionId && context.publicBaseUrl
        ? context.publicBaseUrl + twilioWebhookPath(context.organizationId, context.connectionId, 'status')
        : undefined);
  }

  async sendSms(m: SmsMessage): Promise<Delivery> {
    const segmentation = segmentSms(m.text);
    const answer = await this.api.createMessage({
      To: m.to,
      Body: m.text,
      ...(this.settings.messaging_service_sid ? { MessagingServiceSid: this.settings.messaging_service_sid } : { From: this.settings.from! }),
      ...(this.statusCallback ? { StatusCallback: this.statusCallback } : {}),
    });
    if (!answer.ok) throw twilioFailure(answer.error);
    const sid = answer.body.sid;
    // Without a Message SID nothing says Twilio took the message: not an acknowledgment.
    if (typeof sid !== 'string' || !/^(SM|MM)[0-9a-fA-F]{32}$/.test(sid))
      throw twilioFailure({ code: 'connection_protocol_error', message: 'Twilio answered without a Message SID', transient: true });
    return {
      deliveryId: sid,
      reference: sid,
      livemode: true,
      details: {
        encoding: segmentation.encoding,
        segments: segmentation.segments,
        delivery_status: (typeof answer.body.status === 'string' ? fromTwilioStatus(answer.body.status) : undefined) ?? 'queued',
      },
    };
  }
}
