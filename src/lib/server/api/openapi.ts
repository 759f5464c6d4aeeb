import { PUBLIC_CHAINS_SCHEMA } from '../../chains/registry.js';
import { followParameters, liveSchemas, webhookPaths } from './openapi-live.js';

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
  'invalid_parameter',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'upstream_unavailable',
  'overloaded',
  'history_incomplete',
  'not_configured',
  'internal',
  'invalid_request',
  'store_unavailable',
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
    components: components(),
    paths: { ...paths(chainSlugs), ...webhookPaths },
  };
}

/** A trade's eight fields, and the two include=usd adds (TradeWithUsd). */
const tradeProperties = {
  signature: { type: 'string', description: 'Transaction id.' },
  side: { type: 'string', enum: ['buy', 'sell'] },
  token: { type: 'string', description: 'On-chain symbol; empty when the token has none. Not unique.' },
  tokenMint: { type: 'string', description: 'Mint or contract address of the token: the unique key.' },
  amountSol: nullableDecimal("Native amount exchanged with the venue, in the chain's native unit (SOL, ETH, BNB, TRX, ...)."),
  amount: nullableDecimal('Token quantity moved, in whole tokens.'),
  dex: { type: 'string', description: 'Venue slug, e.g. jupiter, raydium-amm, pumpfun, uniswap-v3, unknown.' },
  blockTime: { type: 'string', format: 'date-time' },
};
const tradeRequired = ['signature', 'side', 'token', 'tokenMint', 'amountSol', 'amount', 'dex', 'blockTime'];
const trades = {
  type: 'array',
  items: { oneOf: [{ $ref: '#/components/schemas/Trade' }, { $ref: '#/components/schemas/TradeWithUsd' }] },
  description: 'Trade objects; TradeWithUsd with include=usd.',
};
const pricesComplete = {
  type: 'boolean',
  description:
    'With include=usd: every USD price of the trades sent was known or known to be missing (a trade before the feed began). False when a price could not be had within PRICE_WAIT_MS or the price RPC failed: those trades carry null, and a later read fills them in.',
};

/** GET /v1/wallets/{address}/pnl's body. */
const pnlSchemas = {
  TokenPnl: {
    type: 'object',
    additionalProperties: false,
    description: "One token's figures. Amounts in the token's units, costs and PnL in the chain's native coin and in USD; exact decimal literals.",
    properties: {
      tokenMint: { type: 'string' },
      token: { type: 'string' },
      trades: { type: 'integer' },
      buys: { type: 'integer' },
      sells: { type: 'integer' },
      skipped: { type: 'integer', description: 'Trades without a token amount, left out.' },
      bought: nullableDecimal('Token bought.'),
      sold: nullableDecimal('Token sold.'),
      spent: nullableDecimal('Native paid on the buys that say it.'),
      received: nullableDecimal('Native received on the sells that say it.'),
      spentUsd: nullableDecimal('USD paid, each trade at its own time.'),
      receivedUsd: nullableDecimal('USD received.'),
      open: nullableDecimal('Token still held by what the history shows.'),
      openCost: nullableDecimal('Cost of what is open; null when part of it is unknown.'),
      openCostUsd: nullableDecimal('The same in USD.'),
      realized: nullableDecimal('Realized PnL in native over the sells whose proceeds and cost are known.'),
      realizedUsd: nullableDecimal('The same in USD.'),
      unpricedSells: { type: 'integer', description: 'Sells whose native realized PnL is unknown (a native amount missing on them or on what they sold).' },
      unpricedSellsUsd: { type: 'integer' },
      uncovered: nullableDecimal('Sold beyond what the history shows bought (tokens that arrived by transfer): no cost basis.'),
      uncoveredProceeds: nullableDecimal("That part's share of the proceeds, not counted as profit."),
      uncoveredProceedsUsd: nullableDecimal('The same in USD.'),
      closedPositions: { type: 'integer' },
      winningPositions: { type: 'integer' },
      meanHoldingSeconds: { type: ['integer', 'null'] },
      lots: { type: 'array', items: { $ref: '#/components/schemas/LotEntry' }, description: "include=lots: every counted trade's part, oldest first." },
      openLots: {
        type: 'array',
        items: { $ref: '#/components/schemas/OpenLot' },
        description: 'include=lots: what is still held, lot by lot (FIFO) or as the pool (average).',
      },
    },
  },
  LotTake: {
    type: 'object',
    additionalProperties: false,
    required: ['lot', 'boughtAt', 'amount', 'cost', 'costUsd', 'lotAmount', 'lotCost', 'lotCostUsd'],
    description:
      'What a sell took from one lot, with the lot as it stood: cost = lotCost × amount / lotAmount (half-even, 36 places), or all of lotCost when amount = lotAmount.',
    properties: {
      lot: { type: ['string', 'null'], description: 'The buy that made the lot (FIFO); null for the average pool.' },
      boughtAt: { type: ['string', 'null'] },
      amount: nullableDecimal('Token taken.'),
      cost: nullableDecimal('Its cost in native; null when unknown.'),
      costUsd: nullableDecimal('The same in USD.'),
      lotAmount: nullableDecimal('The lot before the take.'),
      lotCost: nullableDecimal("The lot's cost before the take."),
      lotCostUsd: nullableDecimal('The same in USD.'),
    },
  },
  LotEntry: {
    type: 'object',
    additionalProperties: false,
    required: ['signature', 'blockTime', 'side', 'amount', 'native', 'usd', 'heldAfter'],
    description: "One trade's part in its token's figures.",
    properties: {
      signature: { type: 'string' },
      blockTime: { type: 'string' },
      side: { type: 'string', enum: ['buy', 'sell'] },
      amount: nullableDecimal('Token bought or sold.'),
      native: nullableDecimal("A buy's cost or a sell's proceeds in native, as the trade says; null when unknown."),
      usd: nullableDecimal('The same in USD.'),
      takes: { type: 'array', items: { $ref: '#/components/schemas/LotTake' }, description: 'Sells: what came out of the lots.' },
      uncovered: nullableDecimal('Sells: the part beyond what was held.'),
      costOfSold: nullableDecimal('Sells: the cost taken out of the lots.'),
      costOfSoldUsd: nullableDecimal('The same in USD.'),
      realized: nullableDecimal("Sells: the covered part's proceeds less its cost; null when unknown."),
      realizedUsd: nullableDecimal('The same in USD.'),
      heldAfter: nullableDecimal('Token held after this trade.'),
    },
  },
  OpenLot: {
    type: 'object',
    additionalProperties: false,
    required: ['lot', 'boughtAt', 'amount', 'cost', 'costUsd'],
    properties: {
      lot: { type: ['string', 'null'] },
      boughtAt: { type: ['string', 'null'] },
      amount: nullableDecimal('Token still held from this lot.'),
      cost: nullableDecimal('Its cost in native; null when unknown.'),
      costUsd: nullableDecimal('The same in USD.'),
    },
  },
  Pnl: {
    type: 'object',
    additionalProperties: false,
    required: ['wallet', 'chain', 'complete', 'tradeCount', 'pricesComplete', 'method', 'tokens', 'realized', 'realizedUsd'],
    properties: {
      wallet: { type: 'string' },
      chain: { type: 'string' },
      complete: { type: 'boolean', description: 'False while the history loads: the figures cover the trades stored so far.' },
      tradeCount: { type: 'integer', minimum: 0 },
      pricesComplete: { type: 'boolean' },
      method: { type: 'string', enum: ['average', 'fifo'] },
      tokens: { type: 'array', items: { $ref: '#/components/schemas/TokenPnl' } },
      realized: nullableDecimal('Realized PnL in native, all tokens.'),
      realizedUsd: nullableDecimal('Realized PnL in USD, all tokens.'),
      uncoveredProceeds: nullableDecimal('Proceeds of uncovered sells, all tokens.'),
      uncoveredProceedsUsd: nullableDecimal('The same in USD.'),
      closedPositions: { type: 'integer' },
      winningPositions: { type: 'integer' },
      winRate: { type: ['number', 'null'], description: 'Winning over closed positions; null with none closed.' },
    },
  },
};

/** The schemas of every body and line the API writes. */
function components(): Record<string, unknown> {
  return {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Trade: { type: 'object', additionalProperties: false, required: tradeRequired, properties: tradeProperties },
      TradeWithUsd: {
        type: 'object',
        additionalProperties: false,
        required: [...tradeRequired, 'nativeUsd', 'valueUsd'],
        description: 'A trade with include=usd: the eight fields and two USD figures.',
        properties: {
          ...tradeProperties,
          nativeUsd: nullableDecimal("USD price of the chain's native coin in force at blockTime (the latest feed round at or before it); null where unknown."),
          valueUsd: nullableDecimal(
            "amountSol × nativeUsd rounded half-even to 6 decimals; for a token-to-token trade against a USD stablecoin leg of the same transaction, that leg's amount; null where unknown.",
          ),
        },
      },
      StreamBatch: {
        type: 'object',
        additionalProperties: false,
        required: ['trades', 'cursor'],
        properties: { trades, cursor: { type: 'string' } },
      },
      StreamFinal: {
        type: 'object',
        additionalProperties: false,
        required: ['complete', 'tradeCount', 'wallet', 'firstTrade', 'unexplained'],
        properties: {
          complete: { type: 'boolean' },
          tradeCount: { type: 'integer', minimum: 0 },
          wallet: { type: 'string' },
          firstTrade: { type: ['string', 'null'], format: 'date-time' },
          unexplained: {
            type: 'integer',
            minimum: 0,
            description: 'Transactions read whose balance changes no trade explains (GET /v1/wallets/{address}/unexplained); so far while loading.',
          },
          cursor: { type: 'string', description: 'Present exactly when complete is false.' },
          liveCursor: { type: 'string', description: 'follow=true: the forward cursor live lines continue from.' },
          pricesComplete,
          error: {
            type: 'object',
            additionalProperties: false,
            required: ['code', 'detail'],
            description:
              'Present when the load stopped on a failure (complete is false): why, with the chain and the RPC host only. Ask again with the cursor later; the history resumes from it.',
            properties: {
              code: { type: 'string', description: 'A problem code, e.g. upstream_unavailable.' },
              detail: { type: 'string' },
            },
          },
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
          pricesComplete,
          trades,
        },
      },
      UnexplainedChange: {
        type: 'object',
        additionalProperties: false,
        required: ['token', 'tokenMint', 'amount'],
        properties: {
          token: { type: 'string', description: "Symbol; the chain's native symbol for the native coin; empty when unknown." },
          tokenMint: { type: ['string', 'null'], description: 'Mint or contract address; null for the native coin (its wrapped form included).' },
          amount: {
            type: ['number', 'null'],
            description:
              "The wallet's balance change, signed (negative: it gave). Written as an exact decimal literal (no exponent); null when the token's decimals are unknown.",
          },
        },
      },
      Unexplained: {
        type: 'object',
        additionalProperties: false,
        required: ['signature', 'blockTime', 'changes', 'programs'],
        properties: {
          signature: { type: 'string', description: 'Transaction id.' },
          blockTime: { type: 'string', format: 'date-time' },
          changes: {
            type: 'array',
            items: { $ref: '#/components/schemas/UnexplainedChange' },
            description: "The wallet's full balance changes in the transaction, the network fee excluded.",
          },
          programs: { type: 'array', items: { type: 'string' }, description: 'Programs (Solana) or contracts (EVM, Tron) the transaction touched.' },
        },
      },
      UnexplainedPage: {
        type: 'object',
        additionalProperties: false,
        required: ['wallet', 'complete', 'unexplainedCount', 'pageSize', 'unexplained'],
        properties: {
          wallet: { type: 'string' },
          complete: { type: 'boolean', description: "The wallet's whole history has been read." },
          unexplainedCount: { type: 'integer', minimum: 0 },
          pageSize: { type: 'integer', minimum: 1 },
          cursor: { type: 'string', description: 'Omitted only on the last page of a complete history.' },
          unexplained: { type: 'array', items: { $ref: '#/components/schemas/Unexplained' } },
        },
      },
      ...pnlSchemas,
      ...liveSchemas,
      Usage: {
        type: 'object',
        additionalProperties: false,
        required: ['account', 'trades'],
        properties: { account: { type: 'string' }, trades: { type: 'integer', minimum: 0 } },
      },
      Chains: PUBLIC_CHAINS_SCHEMA,
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
  };
}

/** The parameters of a wallet's lists (history, unexplained): the same validation, their own limit and cursor. */
function walletParameters(chainSlugs: string[], limit: string, cursor: string): unknown[] {
  return [
    { name: 'address', in: 'path', required: true, schema: { type: 'string' }, description: 'Validated against the chain family.' },
    { name: 'chain', in: 'query', required: false, schema: { type: 'string', enum: chainSlugs, default: 'sol' } },
    { name: 'limit', in: 'query', required: false, schema: { type: 'string', pattern: '^[0-9]*[1-9][0-9]*$' }, description: limit },
    { name: 'cursor', in: 'query', required: false, schema: { type: 'string' }, description: cursor },
  ];
}

/** The problems a wallet's lists answer before any data, as history validates. */
const walletProblems = {
  '400': problem('invalid_address, unknown_chain, invalid_limit, invalid_cursor or invalid_parameter'),
  '401': problem('Missing, malformed, unknown or revoked key'),
  '405': problem('Method not allowed'),
  '429': problem('Rate limited; see Retry-After'),
};

/** The v1 operations, one per route file under src/routes/v1. */
function paths(chainSlugs: string[]): Record<string, unknown> {
  return {
    '/v1/wallets/{address}/history': {
      get: {
        operationId: 'getWalletHistory',
        summary: 'Buy and sell trades of a wallet, newest first',
        security: [{ bearer: [] }],
        parameters: [
          ...walletParameters(
            chainSlugs,
            'Positive integer in digits; selects page mode. No maximum (above 2^53-1 is unbounded).',
            'Opaque, exclusive resume token.',
          ),
          {
            name: 'include',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['usd'] },
            description:
              "usd: each trade also carries nativeUsd and valueUsd (the native coin's USD price at the trade, from the chains' own Chainlink feeds), and the final line or page pricesComplete. Any other value: 400 invalid_parameter.",
          },
          ...followParameters,
        ],
        responses: {
          '200': {
            description: 'Without limit: an NDJSON stream of StreamBatch lines ending with a StreamFinal line. With limit: a Page.',
            headers: {
              'X-Usage-Trades': { description: 'Trades newly counted by this page (page mode).', schema: { type: 'integer' } },
              'X-Decoder-Version': {
                description:
                  "The decoder version of the wallet's stored trades. A client keeping a copy reads the wallet again from the top when it grows (the server decoded the history again).",
                schema: { type: 'integer' },
              },
            },
            content: {
              'application/x-ndjson': {
                schema: {
                  oneOf: [
                    { $ref: '#/components/schemas/StreamBatch' },
                    { $ref: '#/components/schemas/StreamFinal' },
                    { $ref: '#/components/schemas/LiveLine' },
                    { $ref: '#/components/schemas/LiveEnd' },
                  ],
                },
              },
              'application/json': { schema: { $ref: '#/components/schemas/Page' } },
            },
          },
          ...walletProblems,
          '502': problem('The chain RPC failed before any trade could be returned'),
          '503': problem('Overloaded'),
        },
      },
    },
    '/v1/wallets/{address}/unexplained': {
      get: {
        operationId: 'getWalletUnexplained',
        summary: 'Transactions whose balance changes no trade explains, newest first (not metered)',
        description:
          'A transaction is listed when the wallet gave one asset and received a different one (fees and rent apart), a token it gave or received is named by no trade, and it is no known non-trade (liquidity, wraps, deposits against receipt tokens). Asking starts loading the whole history, as a stream does; until it is read, a page holds what has been.',
        security: [{ bearer: [] }],
        parameters: walletParameters(
          chainSlugs,
          'Positive integer in digits: transactions per page (default 100).',
          'Opaque, exclusive resume token of this list.',
        ),
        responses: {
          '200': { description: 'A page', content: { 'application/json': { schema: { $ref: '#/components/schemas/UnexplainedPage' } } } },
          ...walletProblems,
          '503': problem('Overloaded'),
        },
      },
    },
    ...reportPaths(chainSlugs),
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
  };
}

/** The wallet's reports: PnL and the tax exports (issue 25). */
function reportPaths(chainSlugs: string[]): Record<string, unknown> {
  return {
    '/v1/wallets/{address}/pnl': {
      get: {
        operationId: 'getWalletPnl',
        summary: 'Profit and loss per token, in native and USD (not metered)',
        description:
          'From the stored trades, oldest first: by average cost (default) or FIFO lots; sells beyond what the history shows bought are uncovered, their proceeds apart. Asking starts loading the whole history; until it is read, complete is false.',
        security: [{ bearer: [] }],
        parameters: [
          ...walletParameters(chainSlugs, 'Not used.', 'Not used.').slice(0, 2),
          { name: 'method', in: 'query', required: false, schema: { type: 'string', enum: ['average', 'fifo'], default: 'average' } },
          {
            name: 'include',
            in: 'query',
            required: false,
            schema: { type: 'string', enum: ['lots'] },
            description:
              'lots: each token also lists the trades behind its figures (lots, openLots). Those trades are delivered, so metered (each once per account).',
          },
        ],
        responses: {
          '200': {
            description: 'The PnL',
            headers: { 'X-Usage-Trades': { description: 'Trades newly counted (include=lots only; else 0).', schema: { type: 'integer' } } },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pnl' } } },
          },
          ...walletProblems,
          '502': problem('The chain RPC failed before any trade could be read'),
          '503': problem('Overloaded'),
        },
      },
    },
    '/v1/wallets/{address}/export': {
      get: {
        operationId: 'getWalletExport',
        summary: "A whole history's trades as a tax tool's CSV, oldest first (metered as delivered)",
        description:
          'One row per exchange (the two trades of a token-to-token swap are one row), exact decimals, in the import columns of Koinly (Universal), CoinTracker, CoinTracking or this service (csv); columns and sources in docs/export-formats.md. Tokens sharing a symbol are written SYMBOL:first-8-of-mint. Only a complete history is exported: while it loads, 409 history_incomplete with Retry-After (the request starts the load).',
        security: [{ bearer: [] }],
        parameters: [
          ...walletParameters(chainSlugs, 'Not used.', 'Not used.').slice(0, 2),
          { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['csv', 'koinly', 'cointracker', 'cointracking'], default: 'csv' } },
          {
            name: 'from',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'Trades at or after: a date (2024-01-01, UTC) or an ISO 8601 time with its offset.',
          },
          {
            name: 'to',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'Trades before: a time (exclusive), or a date, which takes in that whole day.',
          },
        ],
        responses: {
          '200': {
            description: 'The CSV, header first, rows ending CRLF',
            headers: { 'Content-Disposition': { description: 'attachment; filename="<wallet>-<chain>-<format>.csv"', schema: { type: 'string' } } },
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          ...walletProblems,
          '409': problem('history_incomplete: the history is still loading; see Retry-After'),
          '502': problem('The chain RPC failed before the history could be read'),
          '503': problem('Overloaded'),
        },
      },
    },
  };
}
