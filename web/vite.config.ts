/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The web client imports `@app/contracts` (types, schemas, constants) straight from the library's
// sources, so no build of the library is needed; nothing else of the repository is reachable.
const contracts = fileURLToPath(new URL('../libs/contracts/src', import.meta.url));

// In development (`npm run dev -w web`) the API is the gateway of `npm start`.
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^@app\/contracts$/, replacement: `${contracts}/index.ts` },
      { find: /^@app\/contracts\/(.+)$/, replacement: `${contracts}/$1` },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The route chunks are small; only the highlighter is large, and it loads on demand.
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/healthz': 'http://127.0.0.1:8080',
      '/readyz': 'http://127.0.0.1:8080',
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
  },
});
