// Kept only for evm/index.ts (being deleted on another branch): the decoder lives in decode/.
export * from './decode/decode-receipt.js';
