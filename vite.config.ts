import { defineConfig } from "vite";

/**
 * The web app (web/): TypeScript + Preact, built into dist/web (git-ignored) by `npm run build:web`,
 * which `npm install` (prepare) and `npm start` (prestart) run. The chat server serves the result.
 */
export default defineConfig({
  root: "web",
  base: "/",
  publicDir: false,
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  resolve: { alias: { react: "preact/compat", "react-dom": "preact/compat" } },
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    target: "es2022",
    // No inline <script>: the Content-Security-Policy forbids it.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
});
