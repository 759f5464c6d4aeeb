/**
 * ABI words for EVM logs and call answers built by hand in tests: 32 bytes as 64 hex digits
 * (negative numbers in two's complement), an address in a word, an address as an indexed topic.
 */
export const word = (n: bigint): string => BigInt.asUintN(256, n).toString(16).padStart(64, '0');
export const addrWord = (a: string): string => a.slice(2).padStart(64, '0');
export const topic = (a: string): string => '0x' + addrWord(a);
