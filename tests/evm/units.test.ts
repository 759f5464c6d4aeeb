import { describe, expect, it } from 'vitest';
import { suggestedRange } from '../../src/lib/chains/evm/discovery/logs-range.js';
import { decodeDecimals, decodeSymbol } from '../../src/lib/chains/shared/abi-values.js';

describe('token metadata decoding', () => {
  const abiString = (s: string) => {
    const hex = Buffer.from(s, 'utf8').toString('hex');
    return (
      '0x' + (32).toString(16).padStart(64, '0') + (hex.length / 2).toString(16).padStart(64, '0') + hex.padEnd(Math.ceil(hex.length / 64) * 64 || 64, '0')
    );
  };
  it('reads ABI strings and bytes32 symbols, trimming NUL and whitespace', () => {
    expect(decodeSymbol(abiString('USDC'))).toBe('USDC');
    expect(decodeSymbol(abiString(' WETH \u0000'))).toBe('WETH');
    expect(decodeSymbol('0x4d4b520000000000000000000000000000000000000000000000000000000000')).toBe('MKR');
    // Early Vyper: the bytes32 followed by a long zero buffer.
    expect(decodeSymbol('0x554e492d5631' + '0'.repeat(52) + '0'.repeat(4096))).toBe('UNI-V1');
    expect(decodeSymbol('0x')).toBe('');
    expect(decodeSymbol(undefined)).toBe('');
    expect(decodeSymbol('0xff' + '0'.repeat(62))).toBe('');
  });
  it('reads decimals and refuses implausible ones', () => {
    expect(decodeDecimals('0x' + '6'.padStart(64, '0'))).toBe(6);
    expect(decodeDecimals('0x' + '1'.repeat(64))).toBeNull();
    expect(decodeDecimals('0x')).toBeNull();
  });
});

describe('suggested block ranges in provider refusals', () => {
  it('follows a range given as a pair, a size in the text, or none', () => {
    expect(suggestedRange('query returned more than 10000 results. Try with this block range [0x10, 0x1f].')).toBe(16);
    expect(suggestedRange('Log response size exceeded. this block range should work: [0x1a2b3c, 0x1a2fff]')).toBe(0x1a2fff - 0x1a2b3c + 1);
    expect(suggestedRange('eth_getLogs is limited to a 10,000 range')).toBe(10000);
    expect(suggestedRange('query returned more than 10000 results')).toBeNull();
    expect(suggestedRange('block range is too large: 2000 blocks requested, maximum block range is 1000')).toBe(1000);
    expect(suggestedRange('exceed maximum block range: 5000')).toBe(5000);
    expect(suggestedRange('You can make eth_getLogs requests with up to a 2K block range')).toBe(2000);
    expect(suggestedRange('invalid params')).toBeNull();
  });
});
