import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Signing secrets at rest (decisions.md "Following a wallet live"): AES-256-GCM under a key
 * derived from WEBHOOK_SECRET_KEY (SHA-256 of it, so any long random string serves), each sealed
 * value with its own 12-byte IV. A secret is shown to its owner once, at creation or rotation.
 */
export interface SecretSealer {
  seal(secret: string): string;
  open(sealed: string): string;
}

export function createSecretSealer(key: string): SecretSealer {
  const k = createHash('sha256').update(key, 'utf8').digest();
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', k, iv);
      const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
      return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [v, iv, tag, body] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed webhook secret');
      const d = createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
    },
  };
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64 (the HMAC key is those bytes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
