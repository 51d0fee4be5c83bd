/** Twilio's signed webhooks (form bodies, no API key: X-Twilio-Signature), for /v1/openapi.json. */
const errorRef = (status: number) => ({ $ref: `#/components/responses/Error${status}` });
const pathParams = [
  { name: 'organization_id', in: 'path', required: true, schema: { type: 'string' } },
  { name: 'connection_id', in: 'path', required: true, description: "The organization's `twilio` connection", schema: { type: 'string' } },
];
const signature = {
  name: 'X-Twilio-Signature',
  in: 'header',
  required: true,
  description: "Base64 HMAC-SHA1 of the URL and the sorted form fields, keyed with the connection's Auth Token",
  schema: { type: 'string' },
};
const form = (properties: Record<string, object>, required: string[]) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', required, properties, additionalProperties: { type: 'string' } } } },
});
const refusals = {
  '400': errorRef(400),
  '403': errorRef(403),
  '404': errorRef(404),
  '413': errorRef(413),
  '415': errorRef(415),
  '429': errorRef(429),
  '503': errorRef(503),
};

export const SMS_WEBHOOK_TAG = {
  name: 'sms webhooks',
  description:
    'What Twilio posts back for an organization’s `twilio` connection: delivery status callbacks and inbound messages (STOP/START). Authorized by X-Twilio-Signature; a missing signature is 400 webhook_signature_missing, a wrong one 403 webhook_signature_invalid.',
};

export const SMS_WEBHOOK_SURFACES: Record<string, Record<string, object>> = {
  '/v1/sms/twilio/{organization_id}/{connection_id}/status': {
    post: {
      operationId: 'receiveTwilioStatusCallback',
      summary: 'A Twilio delivery status callback: the run that sent the message records the status; sms.delivery_updated is published',
      tags: ['sms webhooks'],
      security: [],
      parameters: [...pathParams, signature],
      requestBody: form(
        {
          MessageSid: { type: 'string', pattern: '^(SM|MM)[0-9a-fA-F]{32}$' },
          MessageStatus: { type: 'string', description: 'queued, sending, sent, delivered, undelivered, failed, …' },
          ErrorCode: { type: 'string', description: 'Twilio error code (30003, 21610: the recipient replied STOP, …)' },
          To: { type: 'string' },
          AccountSid: { type: 'string' },
        },
        ['MessageSid', 'MessageStatus'],
      ),
      responses: { '204': { description: 'Recorded (or already known, or older than what is known)' }, ...refusals },
    },
  },
  '/v1/sms/twilio/{organization_id}/{connection_id}/inbound': {
    post: {
      operationId: 'receiveTwilioInboundMessage',
      summary: 'An incoming SMS (Twilio’s messaging webhook): STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT opt the sender out; START, UNSTOP back in',
      tags: ['sms webhooks'],
      security: [],
      parameters: [...pathParams, signature],
      requestBody: form({ From: { type: 'string' }, To: { type: 'string' }, Body: { type: 'string' }, MessageSid: { type: 'string' } }, ['From']),
      responses: {
        '200': { description: 'Empty TwiML: no reply from the plugin', content: { 'text/xml': { schema: { type: 'string' } } } },
        ...refusals,
      },
    },
  },
};
