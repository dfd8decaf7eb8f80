/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Django serves the build: assets under /static/ (whitenoise), index.html from a view.
// `npm run dev` proxies the API, the admin and /static/ of Django (default :8000).
const django = process.env.DJANGO_URL ?? "http://127.0.0.1:8000";

export default defineConfig(({ command }) => ({
  base: command === "build" ? "/static/" : "/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1000 },
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
