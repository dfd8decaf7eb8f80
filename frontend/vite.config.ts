/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Django serves the build: assets under /static/ (whitenoise), index.html from a view.
// `npm run dev` proxies the API, the admin and /static/ of Django (default :8000).
const django = process.env.DJANGO_URL ?? "http://127.0.0.1:8000";

export default defineConfig(({ command }) => ({
  base: command === "build" ? "/static/" : "/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // .vite/manifest.json: which chunks each page needs (tests/e2e/test_spa.py sums them).
    manifest: true,
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        // Pages are chunks of their own (App.tsx). The libraries every page runs on change
        // less often than the app: a chunk of their own stays in a phone's cache across deploys.
        codeSplitting: {
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|@tanstack|openapi-fetch|cookie|set-cookie-parser)[\\/]/,
            },
            // What two pages or more share of the app's own code (components, lib, api: 7 KB
            // gzipped) comes with the app: a page then needs its own chunk alone, one request
            // asked for with the page's data, where the dashboard asked for seven more.
            {
              name: "shared",
              test: /[\\/]src[\\/](components|lib|api)[\\/]/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": django,
      "/admin": django,
      "/static/admin": django,
      "/static/rest_framework": django,
      "/healthz": django,
    },
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["src/test/setup.ts"],
    css: false,
  },
}));
