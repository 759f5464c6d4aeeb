/**
 * The OpenAPI parts of following a wallet (issue 24): the follow stream's lines and the webhook
 * operations, merged into the document by openapi.ts.
 */
const trades = {
  type: 'array',
  items: { oneOf: [{ $ref: '#/components/schemas/Trade' }, { $ref: '#/components/schemas/TradeWithUsd' }] },
};
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});
const liveCursor = { type: 'string', description: 'Forward cursor: follow=true&liveCursor=... resumes after the newest trade sent, with no gap or repeat.' };

const webhookProperties = {
  id: { type: 'string' },
  url: { type: 'string' },
  status: {
    type: 'string',
    enum: ['active', 'failing'],
    description: 'failing: deliveries kept failing for 24 h; they are kept until POST .../enable or DELETE.',
  },
  wallets: {
    type: 'array',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['chain', 'address'],
      properties: { chain: { type: 'string' }, address: { type: 'string' } },
    },
  },
  pending: { type: 'integer', minimum: 0, description: 'Deliveries not yet acknowledged with a 2xx.' },
  lastError: { type: ['string', 'null'] },
  lastErrorAt: { type: ['string', 'null'], format: 'date-time' },
  createdAt: { type: 'string', format: 'date-time', description: 'Trades confirmed from then on are announced.' },
};
const webhookRequired = ['id', 'url', 'status', 'wallets', 'pending', 'lastError', 'lastErrorAt', 'createdAt'];

export const liveSchemas = {
  LiveLine: {
    type: 'object',
    additionalProperties: false,
    required: ['trades', 'liveCursor', 'live'],
    description: 'follow=true, after the final line: trades confirmed since, oldest first (empty at least every 15 s).',
    properties: { trades, liveCursor, live: { const: true } },
  },
  LiveEnd: {
    type: 'object',
    additionalProperties: false,
    required: ['live', 'end', 'liveCursor'],
    description: 'The follow stream ends (FOLLOW_MAX_SECONDS, or the server shutting down): resume with its liveCursor.',
    properties: {
      live: { const: true },
      end: { const: true },
      liveCursor,
      error: {
        type: 'object',
        additionalProperties: false,
        required: ['code', 'detail'],
        description: 'Present when the stream ended for a reason: unauthorized (the key was revoked).',
        properties: { code: { type: 'string' }, detail: { type: 'string' } },
      },
    },
  },
  Webhook: { type: 'object', additionalProperties: false, required: webhookRequired, properties: webhookProperties },
  WebhookWithSecret: {
    type: 'object',
    additionalProperties: false,
    required: [...webhookRequired, 'secret'],
    properties: {
      ...webhookProperties,
      secret: { type: 'string', description: 'whsec_...: shown here only. Verify deliveries with any Standard Webhooks library.' },
    },
  },
  WebhookList: {
    type: 'object',
    additionalProperties: false,
    required: ['webhooks'],
    properties: { webhooks: { type: 'array', items: { $ref: '#/components/schemas/Webhook' } } },
  },
  WebhookDelivery: {
    type: 'object',
    additionalProperties: false,
    required: ['chain', 'wallet', 'seq', 'cursor', 'trades'],
    description:
      'The body POSTed to a webhook, with webhook-id (the same on every retry), webhook-timestamp and webhook-signature (Standard Webhooks: v1, base64 HMAC-SHA256 of id.timestamp.body). At least once; one in flight per webhook, in seq order.',
    properties: {
      chain: { type: 'string' },
      wallet: { type: 'string' },
      seq: { type: 'integer', minimum: 1, description: 'Per webhook, without a gap: a receiver that misses one reads the gap from history.' },
      cursor: { type: 'string', description: "A history cursor just above this delivery's newest trade: history?cursor=... reads from it down." },
      trades,
    },
  },
};

const auth = { security: [{ bearer: [] }] };
const common = {
  '401': problem('Missing, malformed, unknown or revoked key'),
  '405': problem('Method not allowed'),
};
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const one = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Webhook' } } } });

export const webhookPaths = {
  '/v1/webhooks': {
    get: {
      operationId: 'listWebhooks',
      summary: "The account's webhooks",
      ...auth,
      responses: { '200': { description: 'Webhooks', content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookList' } } } }, ...common },
    },
    post: {
      operationId: 'createWebhook',
      summary: 'A webhook announcing the trades of up to 1,000 wallets as they are confirmed',
      ...auth,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['url', 'wallets'],
              properties: {
                url: { type: 'string', description: 'https (http only with WEBHOOK_ALLOW_HTTP); no loopback, private, link-local or similar address.' },
                wallets: {
                  type: 'array',
                  minItems: 1,
                  maxItems: 1000,
                  items: { type: 'object', required: ['chain', 'address'], properties: { chain: { type: 'string' }, address: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
      responses: {
        '201': {
          description: 'Created; the secret is shown this once',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookWithSecret' } } },
        },
        '400': problem('invalid_request, invalid_parameter, unknown_chain or invalid_address'),
        '429': problem('MAX_WEBHOOKS_PER_ACCOUNT reached, or rate limited'),
        '501': problem('not_configured: the server has no WEBHOOK_SECRET_KEY'),
        ...common,
      },
    },
  },
  '/v1/webhooks/{id}': {
    get: {
      operationId: 'getWebhook',
      summary: 'Status, last error and pending deliveries',
      ...auth,
      parameters: [idParam],
      responses: { '200': one('The webhook'), '404': problem('No such webhook for this account'), ...common },
    },
    delete: {
      operationId: 'deleteWebhook',
      summary: 'Deletes the webhook and its pending deliveries',
      ...auth,
      parameters: [idParam],
      responses: { '204': { description: 'Deleted' }, '404': problem('No such webhook for this account'), ...common },
    },
  },
  '/v1/webhooks/{id}/enable': {
    post: {
      operationId: 'enableWebhook',
      summary: 'Active again; pending deliveries are due now',
      ...auth,
      parameters: [idParam],
      responses: { '200': one('The webhook'), '404': problem('No such webhook for this account'), ...common },
    },
  },
  '/v1/webhooks/{id}/rotate': {
    post: {
      operationId: 'rotateWebhook',
      summary: 'A new signing secret; the old one also signs for 24 h',
      ...auth,
      parameters: [idParam],
      responses: {
        '200': {
          description: 'The new secret, shown this once',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookWithSecret' } } },
        },
        '404': problem('No such webhook for this account'),
        '501': problem('not_configured'),
        ...common,
      },
    },
  },
};

/** The history operation's follow parameters. */
export const followParameters = [
  {
    name: 'follow',
    in: 'query',
    required: false,
    schema: { type: 'string', enum: ['true', 'false'] },
    description:
      'true (stream mode only): after the final line (which then carries liveCursor) the stream stays open with LiveLine lines of newly confirmed trades, until FOLLOW_MAX_SECONDS and a LiveEnd line. Own caps: MAX_FOLLOW_STREAMS, MAX_FOLLOW_STREAMS_PER_KEY (429).',
  },
  {
    name: 'liveCursor',
    in: 'query',
    required: false,
    schema: { type: 'string' },
    description: 'With follow=true: resume forward from a LiveLine or LiveEnd; no history part. Without follow: 400 invalid_cursor.',
  },
];
