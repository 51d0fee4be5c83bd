/** The pages behind links in messages (HTML, no API key: a signed token), for /v1/openapi.json. */
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const tokenQuery = [
  { name: 'token', in: 'query', required: true, description: 'The signed token from the message', schema: { type: 'string', maxLength: 2000 } },
];
const linkErrors = {
  '400': html('link_invalid: the token was changed or cut short (code also in X-Error-Code)'),
  '404': html('link_not_found: the record behind the link was erased'),
  '429': html('Too many requests from this network (Retry-After)'),
};

/** An unsubscribe POST: the page's button (no body) or a mail client's RFC 8058 one-click. */
const oneClickUnsubscribe = {
  required: false,
  content: {
    'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } } } },
  },
};

export const MESSAGE_LINK_TAG = {
  name: 'message links',
  description:
    'Pages behind the links of the messages the plugin sends (unsubscribe, call sheet confirmation, timesheet approval): HTML in the recipient’s language, authorized by a signed token.',
};

export const MESSAGE_LINK_SURFACES: Record<string, Record<string, object>> = {
  '/v1/messages/unsubscribe': {
    get: {
      operationId: 'showUnsubscribe',
      summary: 'The unsubscribe page of a status update: one button; opening it changes nothing (mail scanners open links)',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: { '200': html('The page, in the recipient’s language (or “already unsubscribed”)'), ...linkErrors },
    },
    post: {
      operationId: 'unsubscribe',
      summary: 'Unsubscribes the address from status updates: the page’s button or a mail client’s RFC 8058 one-click POST; idempotent',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      requestBody: oneClickUnsubscribe,
      responses: { '200': html('Unsubscribed'), ...linkErrors },
    },
  },
  '/v1/sourcing/unsubscribe': {
    get: {
      operationId: 'showSourcingUnsubscribe',
      summary: 'The opt-out page of a sourcing invitation: one button; opening it changes nothing (mail scanners open links)',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: { '200': html('The page (or “consent already withdrawn”)'), ...linkErrors },
    },
    post: {
      operationId: 'sourcingUnsubscribe',
      summary:
        'Withdraws the candidate’s consent to be contacted again (they leave the talent pool; sourcing.consent_withdrawn): the page’s button or a mail client’s RFC 8058 one-click POST; idempotent',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      requestBody: oneClickUnsubscribe,
      responses: { '200': html('Consent withdrawn'), ...linkErrors },
    },
  },
  '/v1/call_sheets/confirm': {
    get: {
      operationId: 'showCallSheetConfirmation',
      summary: 'The confirmation page of a call sheet: the call time and one button; opening it confirms nothing',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: { '200': html('The page, in the recipient’s language'), ...linkErrors, '410': html('link_expired: a week after the call time') },
    },
    post: {
      operationId: 'confirmCallSheet',
      summary: 'Confirms the call sheet (idempotent); call_sheet.confirmed is published once',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: { '200': html('Confirmed'), ...linkErrors, '410': html('link_expired: a week after the call time') },
    },
  },
  '/v1/timesheet_review': {
    get: {
      operationId: 'showTimesheetReview',
      summary:
        "The approval page of a submitted timesheet (the link the client's contact receives): shifts, hours, billed amount, a note, Approve and Reject; opening it decides nothing",
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: { '200': html('The page'), ...linkErrors, '410': html('link_expired (30 days) or link_superseded (the timesheet was submitted again)') },
    },
    post: {
      operationId: 'decideTimesheet',
      summary: 'Approves or rejects the timesheet once (timesheet.approved / timesheet.rejected); a rejection needs a note',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['decision'],
              properties: { decision: { type: 'string', enum: ['approve', 'reject'] }, note: { type: 'string', maxLength: 1000 } },
            },
          },
        },
      },
      responses: {
        '200': html('Decided (or already decided: the page says how)'),
        ...linkErrors,
        '400': html('link_invalid, decision_invalid, or note_required (a rejection without a note); code in X-Error-Code'),
        '410': html('link_expired or link_superseded'),
      },
    },
  },
  '/v1/call_sheets/sheet': {
    get: {
      operationId: 'getCallSheetDocument',
      summary: 'The person’s call sheet as PDF (the link the SMS carries)',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: {
        '200': { description: 'The call sheet', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
        ...linkErrors,
        '410': html('link_expired: a week after the call time'),
      },
    },
  },
  '/v1/schedule': {
    get: {
      operationId: 'showSchedulingPage',
      summary: 'The candidate’s scheduling page: the open times (or the booked one) in their language and zone; opening it books nothing',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: {
        '200': html('The page'),
        ...linkErrors,
        '400': html('scheduling_link_invalid or scheduling_link_expired (code also in X-Error-Code)'),
        '503': html('An interviewer’s calendar did not answer (Retry-After)'),
      },
    },
    post: {
      operationId: 'bookSchedulingSlot',
      summary:
        'Books the chosen time (or moves the booked interview there: same UID, SEQUENCE + 1), or cancels it (action=cancel: iTIP CANCEL, events removed)',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: {
                action: { type: 'string', enum: ['book', 'cancel'] },
                start: { type: 'string', format: 'date-time', description: 'The chosen slot’s start (action=book)' },
              },
            },
          },
        },
      },
      responses: {
        '200': html('Booked, moved or cancelled: the page shows the interview'),
        ...linkErrors,
        '400': html('slot_required, slot_not_offered, scheduling_link_invalid or scheduling_link_expired (X-Error-Code); the page with the open times'),
        '409': html(
          'slot_taken (someone else booked it first), slot_unavailable (a calendar is busy now) or booking_in_progress (this link booked another time at the same moment; that one stands): the page with the times left',
        ),
        '503': html('An interviewer’s calendar did not answer (Retry-After)'),
      },
    },
  },
  '/v1/shifts/confirm': {
    get: {
      operationId: 'showShiftConfirmation',
      summary:
        'The page behind a shift’s link (SMS, invitation): the shift in the person’s language and zone, “I will be there” and “I cannot make it”; opening it answers nothing',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: { '200': html('The page (or “this shift was cancelled”)'), ...linkErrors, '410': html('link_expired: a week after the shift ends') },
    },
    post: {
      operationId: 'answerShift',
      summary: 'Confirms or declines the version of the shift the page showed: shift.confirmed / shift.declined once per version and answer',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: {
                decision: { type: 'string', enum: ['confirmed', 'declined'] },
                sequence: { type: 'string', pattern: '^[0-9]{1,9}$', description: 'The SEQUENCE of the version the page showed' },
              },
            },
          },
        },
      },
      responses: {
        '200': html('Recorded (or the page again when the form was incomplete); the page shows the answer'),
        ...linkErrors,
        '409': html('The shift changed since the page was shown: the page with the current version, nothing recorded'),
        '410': html('link_expired: a week after the shift ends'),
      },
    },
  },
  '/v1/shifts/feed/{feed_token}.ics': {
    get: {
      operationId: 'getShiftFeed',
      summary:
        'An employee’s calendar subscription (webcal://): their upcoming shifts as text/calendar, while the organization holds scheduling.shift_scheduling',
      tags: ['message links'],
      security: [],
      parameters: [
        {
          name: 'feed_token',
          in: 'path',
          required: true,
          description: 'The signed token from POST /v1/shifts/feeds',
          schema: { type: 'string', maxLength: 2000 },
        },
      ],
      responses: {
        '200': {
          description: 'RFC 5545 VCALENDAR, one VEVENT per upcoming shift (UID and SEQUENCE as in the invitations)',
          content: { 'text/calendar': { schema: { type: 'string' } } },
        },
        '400': { description: 'link_invalid (X-Error-Code)', content: { 'text/plain': { schema: { type: 'string' } } } },
        '404': {
          description: 'feed_not_found: the organization does not hold the license (X-Error-Code)',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
        '410': { description: 'link_revoked: the link was rotated (X-Error-Code)', content: { 'text/plain': { schema: { type: 'string' } } } },
        '429': html('Too many requests from this network (Retry-After)'),
      },
    },
  },
  '/v1/sign': {
    get: {
      operationId: 'showSigningPage',
      summary:
        'The signer’s page (e-signature): the document in their language with consent, typed or drawn signature and decline; the first opening is recorded in the audit trail',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: {
        '200': html('The page, or what became of the document (signed, declined, voided, expired)'),
        ...linkErrors,
        '400': html('signing_link_invalid: the token was changed or cut short (code also in X-Error-Code)'),
        '410': html('signing_link_expired: a week after the envelope expired'),
      },
    },
    post: {
      operationId: 'signOrDecline',
      summary: 'Signs (action=sign: consent=yes, typed_name, optional signature_image as a PNG data URL) or declines (action=decline, optional reason)',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              properties: {
                action: { type: 'string', enum: ['sign', 'decline'] },
                consent: { type: 'string', enum: ['yes'], description: 'Consent to sign electronically (action=sign)' },
                typed_name: { type: 'string', maxLength: 200 },
                signature_image: { type: 'string', description: 'data:image/png;base64,… at most 64 KiB, 1200 × 600 pixels' },
                reason: { type: 'string', maxLength: 1000 },
              },
            },
          },
        },
      },
      responses: {
        '200': html('Signed (the sealed PDF is emailed) or declined: the page says so'),
        ...linkErrors,
        '400': html('consent_required, signature_name_required, signature_image_invalid or signing_link_invalid (X-Error-Code): the page again'),
        '409': html('envelope_not_open: already signed, declined, voided or expired'),
        '410': html('envelope_expired or signing_link_expired'),
        '413': html('The form is larger than 200 KB'),
        '503': html(
          'timestamp_unavailable, timestamp_refused or timestamp_invalid (X-Error-Code): the organization’s time-stamp authority (PAdES-B-T) failed; the page again, nothing recorded, sign again later',
        ),
      },
    },
  },
  '/v1/sign/document': {
    get: {
      operationId: 'getSigningDocument',
      summary: 'The document as PDF for the signer: as sent, or the sealed one once signed',
      tags: ['message links'],
      security: [],
      parameters: tokenQuery,
      responses: {
        '200': { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
        ...linkErrors,
        '410': html('signing_link_expired'),
      },
    },
  },
};
