import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_FEEDS, feedTable } from '../../src/lib/prices/feeds.js';

/** The feed table (issue 22): one feed per native coin, addresses as published (checksummed), overridable per coin. */
describe('price feeds', () => {
  it('prices every built-in chain coin, each address in its published checksummed form', () => {
    expect(Object.keys(BUILT_IN_FEEDS).sort()).toEqual(['BNB', 'ETH', 'MON', 'SOL', 'TRX']);
    // A mistyped character fails the EIP-55 checksum: the form here is exactly the published one.
    for (const f of Object.values(BUILT_IN_FEEDS)) expect(getAddress(f.proxy)).toBe(f.proxy);
  });

  it('takes an override per coin, with or without a heartbeat, and refuses a malformed one by name', () => {
    const t = feedTable({ SOL: 'anvil:0x1111111111111111111111111111111111111111', ETH: 'base:0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70:1200' });
    expect(t.SOL).toEqual({ chain: 'anvil', proxy: '0x1111111111111111111111111111111111111111', heartbeatSeconds: 86_400 });
    expect(t.ETH).toEqual({ chain: 'base', proxy: '0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70', heartbeatSeconds: 1200 });
    expect(t.TRX).toEqual(BUILT_IN_FEEDS.TRX);
    for (const bad of ['eth', 'eth:0x123', ':0x1111111111111111111111111111111111111111', 'eth:0x1111111111111111111111111111111111111111:0'])
      expect(() => feedTable({ ETH: bad }), bad).toThrow(/PRICE_FEED_ETH must be/);
  });
});
