/** Chains known before /v1/chains answers (first visit offline); the server's list replaces it. */
import type { ChainInfo } from './api-client.js';

export const FALLBACK_CHAINS: ChainInfo[] = [
  { slug: 'sol', family: 'solana', nativeSymbol: 'SOL', explorerUrl: 'https://solscan.io/tx/{signature}' },
  { slug: 'eth', family: 'evm', nativeSymbol: 'ETH', explorerUrl: 'https://etherscan.io/tx/{signature}' },
  { slug: 'base', family: 'evm', nativeSymbol: 'ETH', explorerUrl: 'https://basescan.org/tx/{signature}' },
  { slug: 'bsc', family: 'evm', nativeSymbol: 'BNB', explorerUrl: 'https://bscscan.com/tx/{signature}' },
  { slug: 'tron', family: 'tron', nativeSymbol: 'TRX', explorerUrl: 'https://tronscan.org/#/transaction/{signature}' },
];
