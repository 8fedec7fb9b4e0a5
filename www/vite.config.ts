import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

// Cross-origin isolation (COOP + COEP) lets the page share a cancel flag
// with its workers (a SharedArrayBuffer); hosts that cannot send these
// headers get a page that cancels by restarting the worker instead.
const ISOLATED = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

export default defineConfig({
  base: "./",
  build: { target: "es2022", outDir: "dist", emptyOutDir: true, assetsInlineLimit: 0 },
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  worker: { format: "es" },
  plugins: [
    // The offline precache: every built file (page, workers, wasm,
    // samples), served from the cache once the page has loaded once. No
    // CDN: the Workbox runtime is bundled next to sw.js.
    VitePWA({
      injectRegister: false,
      registerType: "autoUpdate",
      manifest: false,
      workbox: {
        globPatterns: ["**/*.{html,js,css,wasm,swf,gz}"],
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
        navigateFallback: "index.html",
        ignoreURLParametersMatching: [/.*/],
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  server: { headers: ISOLATED },
  preview: { headers: ISOLATED },
});
