/**
 * The OpenAPI 3.1 document of the whole v1 surface, served at /v1/openapi.json and used by the
 * tests to validate real responses.
 */
const nullableDecimal = (description: string) => ({
  type: ['number', 'null'],
  description: `${description} Written as an exact decimal literal (no exponent); parse it as a decimal to keep every digit.`,
});

const problemCodes = [
  'invalid_address',
  'unknown_chain',
  'invalid_limit',
  'invalid_cursor',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'upstream_unavailable',
  'overloaded',
  'internal',
];

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

export function openApiDocument(chainSlugs: string[]): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Wallet trade history',
      version: '1.0.0',
      description:
        'Every buy and sell of a wallet, decoded from the chain. Stream mode (NDJSON, no `limit`) or page mode (JSON, with `limit`). Trades are newest first; cursors are opaque and exclusive.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Trade: {
          type: 'object',
          additionalProperties: false,
          required: ['signature', 'side', 'token', 'tokenMint', 'amountSol', 'amount', 'dex', 'blockTime'],
          properties: {
            signature: { type: 'string', description: 'Transaction id.' },
            side: { type: 'string', enum: ['buy', 'sell'] },
            token: { type: 'string', description: 'On-chain symbol; empty when the token has none. Not unique.' },
            tokenMint: { type: 'string', description: 'Mint or contract address of the token: the unique key.' },
            amountSol: nullableDecimal("Native amount exchanged with the venue, in the chain's native unit (SOL, ETH, BNB, TRX, ...)."),
            amount: nullableDecimal('Token quantity moved, in whole tokens.'),
            dex: { type: 'string', description: 'Venue slug, e.g. jupiter, raydium-amm, pumpfun, uniswap-v3, unknown.' },
            blockTime: { type: 'string', format: 'date-time' },
          },
        },
        StreamBatch: {
          type: 'object',
          additionalProperties: false,
          required: ['trades', 'cursor'],
          properties: { trades: { type: 'array', items: { $ref: '#/components/schemas/Trade' } }, cursor: { type: 'string' } },
        },
        StreamFinal: {
          type: 'object',
          additionalProperties: false,
          required: ['complete', 'tradeCount', 'wallet', 'firstTrade'],
          properties: {
            complete: { type: 'boolean' },
            tradeCount: { type: 'integer', minimum: 0 },
            wallet: { type: 'string' },
            firstTrade: { type: ['string', 'null'], format: 'date-time' },
            cursor: { type: 'string', description: 'Present exactly when complete is false.' },
          },
        },
        Page: {
          type: 'object',
          additionalProperties: false,
          required: ['wallet', 'complete', 'tradeCount', 'pageSize', 'trades'],
          properties: {
            wallet: { type: 'string' },
            complete: { type: 'boolean' },
            tradeCount: { type: 'integer', minimum: 0 },
            pageSize: { type: 'integer', minimum: 1 },
            totalPages: { type: 'integer', minimum: 0, description: 'Only when complete is true.' },
            cursor: { type: 'string', description: 'Omitted only on the last page of a complete history.' },
            trades: { type: 'array', items: { $ref: '#/components/schemas/Trade' } },
          },
        },
        Usage: {
          type: 'object',
          additionalProperties: false,
          required: ['account', 'trades'],
          properties: { account: { type: 'string' }, trades: { type: 'integer', minimum: 0 } },
        },
        Chains: {
          type: 'object',
          additionalProperties: false,
          required: ['chains'],
          properties: {
            chains: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['slug', 'family', 'nativeSymbol', 'chainId', 'explorerUrl', 'default'],
                properties: {
                  slug: { type: 'string' },
                  family: { type: 'string', enum: ['solana', 'evm', 'tron'] },
                  nativeSymbol: { type: 'string' },
                  chainId: { type: ['integer', 'null'] },
                  explorerUrl: { type: 'string', description: 'Template with {signature}.' },
                  default: { type: 'boolean' },
                  evm: {
                    type: 'object',
                    description: 'EVM chains only: the settings a client needs to decode the chain itself.',
                    additionalProperties: false,
                    required: ['wrappedNative', 'confirmation', 'dexes', 'entryPoints', 'aggregators'],
                    properties: {
                      wrappedNative: { type: ['string', 'null'] },
                      confirmation: {
                        oneOf: [
                          { type: 'string', enum: ['latest', 'safe', 'finalized'] },
                          { type: 'integer', minimum: 0 },
                        ],
                      },
                      dexes: {
                        type: 'array',
                        // The venue shapes of EVM_CHAINS_FILE (decisions.md, "Chains").
                        items: {
                          oneOf: [
                            {
                              type: 'object',
                              required: ['name', 'kind', 'factory'],
                              properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['v2', 'v3'] }, factory: { type: 'string' } },
                            },
                            {
                              type: 'object',
                              required: ['name', 'kind', 'poolManager'],
                              properties: {
                                name: { type: 'string' },
                                kind: { type: 'string', enum: ['v4'] },
                                poolManager: { type: 'string' },
                                positionManager: { type: 'string' },
                              },
                            },
                            {
                              type: 'object',
                              required: ['name', 'kind', 'vault'],
                              properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['balancer-v2'] }, vault: { type: 'string' } },
                            },
                            {
                              type: 'object',
                              required: ['name', 'kind', 'settlement'],
                              properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['cow', 'uniswapx'] }, settlement: { type: 'string' } },
                            },
                            {
                              type: 'object',
                              required: ['name', 'kind', 'vault', 'poolManagers'],
                              properties: {
                                name: { type: 'string' },
                                kind: { type: 'string', enum: ['infinity'] },
                                vault: { type: 'string' },
                                poolManagers: { type: 'array', items: { type: 'string' } },
                              },
                            },
                            {
                              type: 'object',
                              required: ['name', 'kind', 'tokenManager'],
                              properties: { name: { type: 'string' }, kind: { type: 'string', enum: ['fourmeme'] }, tokenManager: { type: 'string' } },
                            },
                          ],
                        },
                      },
                      entryPoints: { type: 'array', items: { type: 'string' } },
                      aggregators: {
                        type: 'array',
                        items: { type: 'object', required: ['name', 'address'], properties: { name: { type: 'string' }, address: { type: 'string' } } },
                      },
                      discovery: {
                        type: ['string', 'null'],
                        enum: ['ots', 'logs', null],
                        description:
                          "How the server finds a wallet's transactions on this chain: the node's Otterscan index (ots) or Transfer-log range scans (logs); null until the chain's first walk chose, from what the node answers (RPC_DISCOVERY_<SLUG> can fix it).",
                      },
                    },
                  },
                },
              },
            },
          },
        },
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code', 'detail'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            code: { type: 'string', enum: problemCodes },
            detail: { type: 'string' },
          },
        },
      },
    },
    paths: {
      '/v1/wallets/{address}/history': {
        get: {
          operationId: 'getWalletHistory',
          summary: 'Buy and sell trades of a wallet, newest first',
          security: [{ bearer: [] }],
          parameters: [
            { name: 'address', in: 'path', required: true, schema: { type: 'string' }, description: 'Validated against the chain family.' },
            { name: 'chain', in: 'query', required: false, schema: { type: 'string', enum: chainSlugs, default: 'sol' } },
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'string', pattern: '^[0-9]*[1-9][0-9]*$' },
              description: 'Positive integer in digits; selects page mode. No maximum (above 2^53-1 is unbounded).',
            },
            { name: 'cursor', in: 'query', required: false, schema: { type: 'string' }, description: 'Opaque, exclusive resume token.' },
          ],
          responses: {
            '200': {
              description: 'Without limit: an NDJSON stream of StreamBatch lines ending with a StreamFinal line. With limit: a Page.',
              headers: { 'X-Usage-Trades': { description: 'Trades newly counted by this page (page mode).', schema: { type: 'integer' } } },
              content: {
                'application/x-ndjson': { schema: { oneOf: [{ $ref: '#/components/schemas/StreamBatch' }, { $ref: '#/components/schemas/StreamFinal' }] } },
                'application/json': { schema: { $ref: '#/components/schemas/Page' } },
              },
            },
            '400': problem('invalid_address, unknown_chain, invalid_limit or invalid_cursor'),
            '401': problem('Missing, malformed, unknown or revoked key'),
            '405': problem('Method not allowed'),
            '429': problem('Rate limited; see Retry-After'),
            '502': problem('The chain RPC failed before any trade could be returned'),
            '503': problem('Overloaded'),
          },
        },
      },
      '/v1/usage': {
        get: {
          operationId: 'getUsage',
          summary: 'Trades counted for your account',
          security: [{ bearer: [] }],
          responses: {
            '200': { description: 'Trades counted for the account', content: { 'application/json': { schema: { $ref: '#/components/schemas/Usage' } } } },
            '401': problem('Missing, malformed, unknown or revoked key'),
          },
        },
      },
      '/v1/chains': {
        get: {
          operationId: 'getChains',
          summary: 'Chains this server serves',
          security: [],
          responses: { '200': { description: 'Chains served', content: { 'application/json': { schema: { $ref: '#/components/schemas/Chains' } } } } },
        },
      },
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document',
          security: [],
          responses: { '200': { description: 'This document', content: { 'application/json': {} } } },
        },
      },
    },
  };
}
