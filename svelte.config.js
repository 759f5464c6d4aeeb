import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
  preprocess: vitePreprocess(),
  kit: {
    adapter: adapter(),
    // The API is called by scripts with curl: it has no forms to protect and must accept any origin.
    csrf: { trustedOrigins: ['*'] },
  },
};

export default config;
