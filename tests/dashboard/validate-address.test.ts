import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDirectSource, directModeAvailable } from '../../src/lib/dashboard/chain-sources.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import { checkAddress, type AddressFamily } from '../../src/lib/dashboard/validate-address.js';

// decisions.md test vectors: the page must accept and refuse exactly what the server does.
const vectors = JSON.parse(readFileSync(new URL('../fixtures/address-vectors.json', import.meta.url), 'utf8'));
const families: Record<string, AddressFamily> = { solana: 'solana', evm: 'evm', tron: 'tron' };

describe('checkAddress', () => {
  for (const [key, family] of Object.entries(families)) {
    const v = vectors[key];
    const valid: string[] = Array.isArray(v.valid) ? v.valid : Object.keys(v.valid);
    const invalid: string[] = Array.isArray(v.invalid) ? v.invalid : Object.keys(v.invalid);
    it.each(valid)(`${key} accepts %s`, (a) => expect(checkAddress(family, a).ok).toBe(true));
    // The page trims what is pasted (and sends the trimmed text), so a vector refused only for its
    // surrounding whitespace is judged on its trimmed form, as the server will see it.
    const core = invalid.filter((a) => a.trim() === a || !valid.includes(a.trim()));
    it.each(core)(`${key} refuses %s`, (a) => {
      const c = checkAddress(family, a);
      expect(c.ok).toBe(false);
      if (a.trim()) expect(c.message).toBeTruthy();
    });
  }
  it('trims what was pasted and stays quiet on an empty field', () => {
    expect(checkAddress('solana', '  So11111111111111111111111111111111111111112 \n')).toMatchObject({
      ok: true,
      value: 'So11111111111111111111111111111111111111112',
    });
    expect(checkAddress('evm', '')).toEqual({ ok: false, value: '', message: null });
  });
});

describe('direct-mode registry', () => {
  it('builds the source of every family, and refuses an EVM chain it has no settings for', async () => {
    expect(directModeAvailable('solana')).toBe(true);
    expect(directModeAvailable('evm')).toBe(true);
    expect(directModeAvailable('tron')).toBe(true);
    const tokenCache = createMemoryTokenCache();
    expect((await createDirectSource({ chain: 'sol', family: 'solana', rpcUrl: 'http://127.0.0.1:9', tokenCache })).chain).toBe('sol');
    expect((await createDirectSource({ chain: 'eth', family: 'evm', rpcUrl: 'http://127.0.0.1:9', tokenCache })).chain).toBe('eth');
    expect((await createDirectSource({ chain: 'tron', family: 'tron', rpcUrl: 'http://127.0.0.1:9', tokenCache })).chain).toBe('tron');
    await expect(createDirectSource({ chain: 'nochain', family: 'evm', rpcUrl: 'http://x', tokenCache })).rejects.toThrow(/no settings/);
  });
});
