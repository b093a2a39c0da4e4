/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, runnerImport, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import type { RouteGroups } from '@app/contracts/gateway/route';

// The web client imports `@app/contracts` (types, schemas, constants) straight from the library's
// sources, so no build of the library is needed; nothing else of the repository is reachable.
const contracts = fileURLToPath(new URL('../libs/contracts/src', import.meta.url));

/**
 * The route declarations as the browser gets them: `@app/contracts/gateway` is, in the client, only
 * the method and path of each route. Its types are the full declarations' (the client's calls are
 * typed from the schemas), but the schemas and zod stay out of the bundle. Each `API.area.name` in
 * the client's code is replaced by its `{method, path}` at build time, so a page carries only the
 * routes it calls (as when the URLs were written out), not the whole table.
 */
const BROWSER_ROUTES = 'virtual:browser-routes';
const ROUTE_REFERENCE = /(?<![\w$.])API\.([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)(?![\w$])/g;
function browserRoutes(): Plugin {
  const declarations = `${contracts}/gateway/routes.ts`;
  let table: Promise<Record<string, Record<string, { method: string; path: string }>>> | undefined;
  const load = () =>
    (table ??= runnerImport<{ API: RouteGroups }>(declarations, { configFile: false }).then(({ module }) =>
      Object.fromEntries(
        Object.entries(module.API).map(([area, group]) => [
          area,
          Object.fromEntries(Object.entries(group).map(([name, route]) => [name, { method: route.method, path: route.path }])),
        ]),
      ),
    ));
  return {
    name: 'browser-routes',
    enforce: 'post',
    resolveId: (source) => (source === BROWSER_ROUTES ? `\0${BROWSER_ROUTES}` : null),
    async load(id) {
      if (id !== `\0${BROWSER_ROUTES}`) return null;
      this.addWatchFile(declarations);
      for (const area of readdirSync(`${contracts}/gateway/routes`)) this.addWatchFile(`${contracts}/gateway/routes/${area}`);
      return `export const API = ${JSON.stringify(await load())};`;
    },
    async transform(code, id) {
      if (id.includes('node_modules') || !/from\s*['"]@app\/contracts\/gateway['"]/.test(code)) return null;
      const routes = await load();
      return code.replace(ROUTE_REFERENCE, (reference, area: string, name: string) => {
        const route = routes[area]?.[name];
        if (!route) this.error(`${reference}: no such route in the contracts' API`);
        return `(${JSON.stringify(route)})`;
      });
    },
  };
}

/**
 * The built page's style sheet goes after the app's frame (index.html's skeleton, styled inline),
 * so the frame paints as soon as the page arrives instead of waiting for the style sheet, itself
 * sharing a slow link with the scripts. The scripts still run only once it is there (a module
 * script waits for the style sheets before it), so the app never shows unstyled.
 */
function styleSheetAfterFrame(): Plugin {
  return {
    name: 'style-sheet-after-frame',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const sheets = html.match(/[ \t]*<link rel="stylesheet"[^>]*>\n?/g) ?? [];
        if (sheets.length === 0) return html;
        const without = sheets.reduce((page, sheet) => page.replace(sheet, ''), html);
        return without.replace('</body>', `${sheets.map((sheet) => `  ${sheet.trim()}\n`).join('')}  </body>`);
      },
    },
  };
}

/** The dark theme's page colour (styles.css, index.html): the installed app's splash and title bar. */
const DARK_BACKGROUND = '#15181d';

/**
 * Installable (issue 25): the web app manifest (linked from the built index.html) and the service
 * worker (src/sw.ts), which precaches the build's shell: index.html, the hashed scripts and style
 * sheets, the icons (public/icons, drawn in icons/ and rendered by `node scripts/web-icons.mjs`) and
 * the fonts (woff2 only: every browser that runs a worker reads it). Never an API answer.
 */
function installable() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    injectRegister: false,
    includeManifestIcons: false,
    manifest: {
      id: '/chat',
      name: 'Assistant',
      short_name: 'Assistant',
      description: 'Your personal AI assistant: on the web and by text message.',
      start_url: '/chat',
      scope: '/',
      display: 'standalone',
      background_color: DARK_BACKGROUND,
      theme_color: DARK_BACKGROUND,
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    injectManifest: {
      globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      // Source maps and precompressed copies are not part of the shell.
      globIgnores: ['**/*.map', '**/*.br', '**/*.gz'],
    },
  });
}

// In development (`npm run dev -w web`) the API is the gateway of `npm start`.
export default defineConfig({
  plugins: [react(), browserRoutes(), styleSheetAfterFrame(), installable()],
  resolve: {
    alias: [
      { find: /^@app\/contracts\/gateway$/, replacement: BROWSER_ROUTES },
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
