// The search fast path (src/search-fast.ts): with nothing changed it prints
// exactly what the full command prints (text, --json, no match, colour), and
// it falls back whenever a store changed, an option it does not take is
// given, or there is no index yet. TXCRIPT_SEARCH_FAST=only exits 125 where
// the fast path would fall back (the control that it did answer); =0 runs
// the full command.
import { promises as fs, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { bin, fixturesRoot, type Home, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

const thread = "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001";
const full = { env: { TXCRIPT_SEARCH_FAST: "0" } };
const only = { env: { TXCRIPT_SEARCH_FAST: "only" } };

async function stock(): Promise<void> {
  await fs.copyFile(
    path.join(fixturesRoot, "amp", "legacy-thread.json"),
    path.join(home.ampThreads, `${thread}.json`),
  );
  // The first search builds the index (the full path: there is none yet).
  expect((await txcript(home, ["search", "exclusive"], only)).code).toBe(125);
  const built = await txcript(home, ["search", "exclusive"]);
  expect(built.code, built.stderr).toBe(0);
}

describe("txcript search's fast path", () => {
  it("prints what the full command prints, for text, --json, no match and colour", async () => {
    await stock();
    const cases: [string[], Record<string, string>][] = [
      [["search", "exclusive"], {}],
      [["search", "SPAN_INCLUDES_LAST"], {}],
      [["search", "Régression", "TEST"], {}],
      [["search", "exclusive", "--json"], {}],
      [["search", "--json", "range"], {}],
      [["search", "no-such-word-anywhere"], {}],
      [["search", "nosuchwordanywhere", "--json"], {}],
      [["search", "exclusive"], { FORCE_COLOR: "1" }],
    ];
    for (const [args, env] of cases) {
      const slow = await txcript(home, args, { env: { ...env, ...full.env } });
      const fast = await txcript(home, args, { env: { ...env, ...only.env } });
      expect(fast.code, `${args.join(" ")}: ${fast.stderr}`).toBe(slow.code);
      expect(fast.stdout).toBe(slow.stdout);
      expect(fast.stderr).toBe(slow.stderr);
    }
    // Control: the outputs compared are not all empty.
    const json = await txcript(home, ["search", "exclusive", "--json"], only);
    expect((JSON.parse(json.stdout) as unknown[]).length).toBeGreaterThan(0);
    expect((await txcript(home, ["search", "exclusive"], only)).stdout).toContain(thread);
  });

  it("falls back when a store changed, and the full path then sees the change", async () => {
    await stock();
    expect((await txcript(home, ["search", "exclusive"], only)).code).toBe(0);
    const file = path.join(home.ampThreads, `${thread}.json`);
    const text = await fs.readFile(file, "utf8");
    await fs.writeFile(file, text.replace("exclusive", "exclusive quokkaword"));
    expect((await txcript(home, ["search", "quokkaword"], only)).code).toBe(125);
    const after = await txcript(home, ["search", "quokkaword"]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain(thread);
    // Refreshed: the fast path answers again, with the new word.
    const fast = await txcript(home, ["search", "quokkaword"], only);
    expect(fast.code).toBe(0);
    expect(fast.stdout).toBe(after.stdout);
    // A session added to another store (a new directory under its root) falls back too.
    await fs.mkdir(path.join(home.claudeConfig, "projects", "-tmp-x"), { recursive: true });
    expect((await txcript(home, ["search", "quokkaword"], only)).code).toBe(125);
  });

  it("leaves options it does not take, and a moved store, to the full path", async () => {
    await stock();
    for (const args of [
      ["search", "exclusive", "--limit", "1"],
      ["search", "exclusive", "--from", "amp"],
      ["search", "exclusive", "--reindex"],
      ["search", "exclusive", "--json", "--json"],
      ["search", "--help"],
      ["search"],
    ])
      expect((await txcript(home, args, only)).code, args.join(" ")).toBe(125);
    // Control: the same query without them is answered.
    expect((await txcript(home, ["search", "exclusive"], only)).code).toBe(0);
    const moved = path.join(home.root, "codex-elsewhere");
    expect(
      (await txcript(home, ["search", "exclusive"], { env: { ...only.env, CODEX_HOME: moved } }))
        .code,
    ).toBe(125);
  });
});

/** The source files (esbuild's `// file` markers) of a chunk and every chunk it imports statically. */
function chunkSources(start: string): { sources: string[]; bytes: number } {
  const seen = new Set<string>();
  const sources: string[] = [];
  let bytes = 0;
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    bytes += text.length;
    for (const match of text.matchAll(/^\/\/ (\S+\.[cm]?[jt]s)$/gm))
      sources.push(match[1] as string);
    for (const match of text.matchAll(/from\s*"(\.[^"]+)"/g))
      walk(path.resolve(path.dirname(file), match[1] as string));
  };
  walk(start);
  return { sources, bytes };
}

describe("the fast path's chunk", () => {
  const chunks = path.join(path.dirname(bin), "chunks");
  const named = (prefix: string) =>
    path.join(chunks, readdirSync(chunks).find((name) => name.startsWith(prefix)) as string);

  it("loads no codec, schema or zod (control: the dispatcher's search command does)", () => {
    const fast = chunkSources(named("search-fast-"));
    expect(fast.sources).toContain("src/search-fast.ts");
    expect(
      fast.sources.filter((file) => /zod|\/core\/src\/(?!errors)|codec|schema/.test(file)),
    ).toEqual([]);
    expect(fast.bytes).toBeLessThan(64 * 1024);
    const command = chunkSources(named("main-"));
    expect(command.sources.some((file) => file.includes("zod"))).toBe(true);
  });

  it("bundles zod's English locale and no other (control: zod's classic API is bundled)", () => {
    const sources = readdirSync(chunks).flatMap((name) =>
      [...readFileSync(path.join(chunks, name), "utf8").matchAll(/^\/\/ (\S+)$/gm)].map(
        (match) => match[1] as string,
      ),
    );
    expect(sources.some((file) => file.endsWith("/zod/v4/classic/schemas.js"))).toBe(true);
    const locales = sources.filter((file) => /\/zod\/v4\/locales\/[^/]+\.js$/.test(file));
    expect(locales.length).toBeGreaterThan(0);
    expect(locales.filter((file) => !file.endsWith("/locales/en.js"))).toEqual([]);
  });
});
