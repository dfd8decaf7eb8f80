/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";

// Every module of the app as text (tests left out: a test imports what it tests).
const sources = import.meta.glob<string>(["./**/*.{ts,tsx}", "!./**/*.test.{ts,tsx}", "!./**/*.d.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The modules under ./pages/ that `file` imports, as "pages/Dashboard". */
function pagesImportedBy(file: string): string[] {
  const importer = new URL(file, "file:///src/");
  return [...(sources[file] ?? "").matchAll(IMPORT)]
    .map((match) => match[1] ?? match[2] ?? "")
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => new URL(specifier, importer).pathname)
    .filter((path) => path.startsWith("/src/pages/"))
    .map((path) => path.slice("/src/".length));
}

describe("where code lives", () => {
  it("finds the pages it checks", () => {
    expect(Object.keys(sources)).toContain("./pages/Dashboard.tsx");
    expect(pagesImportedBy("./App.tsx")).toContain("pages/Dashboard");
  });

  it("no page imports another page: what two pages share lives in components/ or lib/", () => {
    // A page is a module of pages/ or a folder of it (pages/day/): its own modules import each other.
    const pageOf = (path: string) => path.replace(/^\.\//, "").split("/").slice(0, 2).join("/").replace(/\.tsx?$/, "");
    const offending = Object.keys(sources)
      .filter((file) => file.startsWith("./pages/"))
      .flatMap((file) =>
        pagesImportedBy(file)
          .filter((page) => pageOf(page) !== pageOf(file))
          .map((page) => `${file} imports ${page}`),
      );
    expect(offending).toEqual([]);
  });

  it("only the router (App.tsx) imports pages", () => {
    const offending = Object.keys(sources)
      .filter((file) => !file.startsWith("./pages/") && file !== "./App.tsx")
      .flatMap((file) => pagesImportedBy(file).map((page) => `${file} imports ${page}`));
    expect(offending).toEqual([]);
  });

  it("every query key comes from api/queryKeys.ts, so a write invalidates what a page reads", () => {
    const literalKey = /\b(?:queryKey:|setQueryData\(|getQueryData\()\s*\[/;
    const offending = Object.keys(sources).filter((file) => literalKey.test(sources[file] ?? ""));
    expect(offending).toEqual([]);
  });
});
