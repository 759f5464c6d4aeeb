import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    adapter: adapter(),
    // The dashboard's Content-Security-Policy. SvelteKit hashes its own inline bootstrap script
    // (mode auto). connect-src is open to any http(s) origin on purpose: direct mode calls the
    // RPC URL a person types in, which no list written here can know; nothing else loads from
    // elsewhere. Svelte sets some styles inline, hence style-src 'unsafe-inline' (styles only).
    csp: {
      mode: 'auto',
      directives: {
        'default-src': ['self'],
        'script-src': ['self'],
        'style-src': ['self', 'unsafe-inline'],
        'img-src': ['self', 'data:'],
        'font-src': ['self'],
        'connect-src': ['self', 'https:', 'http:'],
        'worker-src': ['self'],
        'manifest-src': ['self'],
        'object-src': ['none'],
        'base-uri': ['self'],
        'form-action': ['self'],
      },
    },
    // CSRF protection stays on (SvelteKit's default): it only concerns form-encoded POSTs from
    // another origin, and this app has none; the API is GET-only with Bearer keys, and which
    // origins may call it is CORS, set in src/lib/server/api/api-headers.ts.
  },
};

export default config;
