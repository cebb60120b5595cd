import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { lazyImportProblems, publicExportProblems } from "./exports.js";

const roots: string[] = [];
function sources(files: Record<string, string>): URL {
  const root = mkdtempSync(path.join(os.tmpdir(), "txcript-exports-"));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, name), text);
  return pathToFileURL(`${root}${path.sep}`);
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("publicExportProblems", () => {
  it("is empty when the names are exactly the list", () => {
    expect(publicExportProblems({ b: 1, a: 2 }, ["a", "b"])).toEqual({ extra: [], missing: [] });
  });
  it("control: names an extra export and a missing one", () => {
    expect(publicExportProblems({ a: 1, leaked: 2 }, ["a", "gone"])).toEqual({
      extra: ["leaked"],
      missing: ["gone"],
    });
  });
});

describe("lazyImportProblems", () => {
  const lazy = 'const load = () => import("better-sqlite3");\n';
  it("is empty when one file imports the module dynamically (tests may name it)", () => {
    const directory = sources({
      "db.ts": lazy,
      "other.ts": 'import { x } from "./db.js";\n',
      "db.test.ts": 'import Database from "better-sqlite3";\n',
    });
    expect(lazyImportProblems({ directory, module: "better-sqlite3", file: "db.ts" })).toEqual([]);
  });
  it("control: a static import, a second importer, no dynamic import, a missing file", () => {
    const directory = sources({
      "db.ts": 'import Database from "better-sqlite3";\n',
      "other.ts": lazy,
    });
    expect(lazyImportProblems({ directory, module: "better-sqlite3", file: "db.ts" })).toEqual([
      'other.ts names "better-sqlite3" (only db.ts may)',
      'db.ts imports "better-sqlite3" statically',
      'db.ts has no import("better-sqlite3")',
    ]);
    expect(lazyImportProblems({ directory, module: "better-sqlite3", file: "gone.ts" })).toEqual([
      'db.ts names "better-sqlite3" (only gone.ts may)',
      'other.ts names "better-sqlite3" (only gone.ts may)',
      "gone.ts is not a source file here",
    ]);
  });
});
