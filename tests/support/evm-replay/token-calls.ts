import { encodeAbiParameters, toFunctionSelector } from 'viem';

/** ERC-20 metadata selectors, from their signatures. */
export const SYMBOL_SELECTOR = toFunctionSelector('symbol()');
export const DECIMALS_SELECTOR = toFunctionSelector('decimals()');
export const NAME_SELECTOR = toFunctionSelector('name()');
export const FACTORY_SELECTOR = toFunctionSelector('factory()');

export interface TokenFact {
  symbol?: string;
  decimals?: number;
  name?: string;
}

/**
 * `eth_call` answers (`${token}:${selector}` -> result) for the token facts given: `symbol()` and
 * `name()` ABI-encoded as strings, `decimals()` as a uint8 word. A field not given is not answered
 * (the call reverts, as for a token without the method).
 */
export function tokenCalls(tokens: ReadonlyMap<string, TokenFact>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [address, t] of tokens) {
    const a = address.toLowerCase();
    if (t.symbol !== undefined) out.set(`${a}:${SYMBOL_SELECTOR}`, encodeAbiParameters([{ type: 'string' }], [t.symbol]));
    if (t.name !== undefined) out.set(`${a}:${NAME_SELECTOR}`, encodeAbiParameters([{ type: 'string' }], [t.name]));
    if (t.decimals !== undefined) out.set(`${a}:${DECIMALS_SELECTOR}`, encodeAbiParameters([{ type: 'uint8' }], [t.decimals]));
  }
  return out;
}
