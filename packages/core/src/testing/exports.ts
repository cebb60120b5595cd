// The public-export checks every package's index.test.ts made in its own
// copy: the entry exports exactly the listed names, and a heavy module
// (better-sqlite3) is imported by one source file only, dynamically, so
// nothing pays for it before first use. The checks are plain functions
// returning what is wrong (tested on their own, with controls); the
// describe helper runs them under vitest.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** What differs between a module's export names and the expected list: names it has beyond the list, and listed names it lacks. */
export function publicExportProblems(
  api: object,
  expected: readonly string[],
): { extra: string[]; missing: string[] } {
  const names = new Set(Object.keys(api));
  const listed = new Set(expected);
  return {
    extra: [...names].filter((name) => !listed.has(name)).sort(),
    missing: [...listed].filter((name) => !names.has(name)).sort(),
  };
}

export interface LazyImport {
  /** The source directory: `new URL(".", import.meta.url)` in a test beside the sources. */
  directory: URL;
  /** The module imported lazily, e.g. "better-sqlite3". */
  module: string;
  /** The one source file (a name in `directory`) allowed to import it. */
  file: string;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * What breaks "`module` is imported by `file` alone, and only by a dynamic
 * import()": each other source file (not a test) naming it, a static import
 * of it in `file`, and no dynamic import in `file`. Empty when it holds.
 */
export function lazyImportProblems({ directory, module, file }: LazyImport): string[] {
  const root = fileURLToPath(directory);
  const quoted = `${module}"`;
  const sources = readdirSync(root)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .sort();
  const problems: string[] = [];
  for (const name of sources) {
    if (name === file) continue;
    if (readFileSync(new URL(name, directory), "utf8").includes(quoted))
      problems.push(`${name} names "${module}" (only ${file} may)`);
  }
  if (!sources.includes(file)) return [...problems, `${file} is not a source file here`];
  const text = readFileSync(new URL(file, directory), "utf8");
  const name = escaped(module);
  if (new RegExp(`^\\s*import\\s[^(]*"${name}"`, "m").test(text))
    problems.push(`${file} imports "${module}" statically`);
  if (!new RegExp(`import\\(\\s*"${name}"\\s*\\)`).test(text))
    problems.push(`${file} has no import("${module}")`);
  return problems;
}

export interface PublicExportsOptions {
  /** Modules that must load on first use only (see lazyImportProblems). */
  lazyImports?: readonly LazyImport[];
}

/**
 * `describe("<name> public API")`: the entry `api` exports exactly
 * `expected` (a sorted list), and each lazy import holds.
 */
export function describePublicExports(
  name: string,
  api: object,
  expected: readonly string[],
  options: PublicExportsOptions = {},
): void {
  describe(`${name} public API`, () => {
    it("exports exactly these names", () => {
      expect(publicExportProblems(api, expected)).toEqual({ extra: [], missing: [] });
      expect([...expected]).toEqual([...expected].sort());
    });
    for (const lazy of options.lazyImports ?? [])
      it(`loads ${lazy.module} only on first use (${lazy.file} alone imports it, dynamically)`, () => {
        expect(lazyImportProblems(lazy)).toEqual([]);
      });
  });
}
