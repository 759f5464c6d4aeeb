/**
 * Writes the v1 OpenAPI document, as the server serves it for the built-in chains, to the path
 * given (for `npm run lint:openapi`, which lints it under Redocly's recommended rules).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createChainRegistry } from '../../src/lib/chains/registry.js';
import { openApiDocument } from '../../src/lib/server/api/openapi.js';

const out = process.argv[2];
if (!out) throw new Error('usage: write-openapi.ts <file>');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    openApiDocument(
      createChainRegistry()
        .list()
        .map((c) => c.slug),
    ),
    null,
    2,
  ),
);
