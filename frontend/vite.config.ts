/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

// Django serves the build: assets under /static/ (whitenoise), index.html from a view.
// `npm run dev` proxies the API, the admin and /static/ of Django (default :8000).
const django = process.env.DJANGO_URL ?? "http://127.0.0.1:8000";
const BUILD_BASE = "/static/";

/** index.html asks for src/render.tsx's chunks (React DOM) with the app's own, though main.tsx
 * imports them only later: all the bytes stream from the start, as Vite's modulepreload does
 * for the chunks the entry imports. */
function preloadRender(base: string): Plugin {
  return {
    name: "preload-render",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).flatMap((output) => (output.type === "chunk" ? [output] : []));
        const render = chunks.find((chunk) => chunk.facadeModuleId?.endsWith("/src/render.tsx"));
        if (!render) throw new Error("preload-render: no chunk for src/render.tsx");
        return [render.fileName, ...render.imports]
          .filter((file) => !html.includes(file))
          .map((file) => ({
            tag: "link",
            attrs: { rel: "modulepreload", crossorigin: true, href: `${base}${file}` },
            injectTo: "head",
          }));
      },
    },
  };
}

export default defineConfig(({ command }) => ({
  base: command === "build" ? BUILD_BASE : "/",
  plugins: [react(), preloadRender(BUILD_BASE)],
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
              test: /node_modules[\\/](react|react-router|@tanstack|openapi-fetch|cookie|set-cookie-parser)[\\/]/,
            },
            // React DOM comes with src/render.tsx, which main.tsx imports once it has asked the
            // API for the page's data: a phone does not wait for React DOM to arrive and run first.
            {
              name: "react-dom",
              test: /node_modules[\\/](react-dom|scheduler)[\\/]/,
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
