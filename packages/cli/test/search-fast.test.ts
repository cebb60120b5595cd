// The search fast path (src/search-fast.ts): with nothing changed it prints
// exactly what the full command prints (text, --json, no match, colour), and
// it falls back whenever a store changed, an option it does not take is
// given, or there is no index yet. TXCRIPT_SEARCH_FAST=only exits 125 where
// the fast path would fall back (the control that it did answer); =0 runs
// the full command.
import { promises as fs, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  bin,
  bundledSources,
  fixturesRoot,
  type Home,
  runWithLoadLog,
  txcript,
  useHome,
} from "./e2e.js";

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

  it("after a store changed, refreshes it and answers as the full path does", async () => {
    await stock();
    expect((await txcript(home, ["search", "exclusive"], only)).code).toBe(0);
    const file = path.join(home.ampThreads, `${thread}.json`);
    const text = await fs.readFile(file, "utf8");
    await fs.writeFile(file, text.replace("exclusive", "exclusive quokkaword"));
    const fast = await txcript(home, ["search", "quokkaword"], only);
    expect(fast.code, fast.stderr).toBe(0);
    expect(fast.stdout).toContain(thread);
    // The full path finds nothing left to refresh, and prints the same.
    const after = await txcript(home, ["search", "quokkaword"], full);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toBe(fast.stdout);
    expect(after.stderr).toBe(fast.stderr);
    // A session added to another store (a new directory under its root): that store is
    // discovered again, and the fast path answers too.
    await fs.mkdir(path.join(home.claudeConfig, "projects", "-tmp-x"), { recursive: true });
    const added = await txcript(home, ["search", "quokkaword", "--json"], only);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe(
      (await txcript(home, ["search", "quokkaword", "--json"], full)).stdout,
    );
    // Removed in place of the change: the word is gone from both paths.
    await fs.writeFile(file, text);
    const gone = await txcript(home, ["search", "quokkaword"], only);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toBe("");
    expect(gone.stderr).toBe((await txcript(home, ["search", "quokkaword"], full)).stderr);
  });

  it("after a store changed, loads that store's harness and no other (control: the full path loads all)", async () => {
    await stock();
    const file = path.join(home.ampThreads, `${thread}.json`);
    const text = await fs.readFile(file, "utf8");
    const harnessPackages = ["amp", "claude-code", "codex", "gemini-cli", "opencode", "pi"];
    const loadedHarnesses = async (env: Record<string, string>) => {
      const { result, sources } = await withLoadedSources(home, ["search", "quokkaword"], env);
      expect(result.code, result.stderr).toBe(0);
      return harnessPackages.filter((name) => harnessLoaded(sources, name));
    };
    await fs.writeFile(file, text.replace("exclusive", "exclusive quokkaword"));
    expect(await loadedHarnesses(only.env)).toEqual(["amp"]);
    await fs.mkdir(path.join(home.claudeConfig, "projects", "-tmp-x"), { recursive: true });
    expect(await loadedHarnesses(only.env)).toEqual(["claude-code"]);
    // Nothing changed: none at all.
    expect(await loadedHarnesses(only.env)).toEqual([]);
    await fs.writeFile(file, text);
    expect(await loadedHarnesses(full.env)).toEqual(harnessPackages);
  });

  it("is not sent back to a store by its logs: Codex's log and history, Gemini CLI's logs.json (control: a session file is)", async () => {
    const codexLog = path.join(home.home, ".codex", "log", "codex-tui.log");
    const history = path.join(home.home, ".codex", "history.jsonl");
    const geminiLogs = path.join(home.home, ".gemini", "tmp", "app", "logs.json");
    for (const file of [codexLog, history, geminiLogs]) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, "[]\n");
    }
    await stock();
    const loaded = async () => {
      const { result, sources } = await withLoadedSources(home, ["search", "exclusive"], only.env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(thread);
      return ["amp", "codex", "gemini-cli"].filter((name) => harnessLoaded(sources, name));
    };
    await fs.appendFile(codexLog, "a log line\n");
    await fs.appendFile(history, '{"text":"a prompt"}\n');
    await fs.writeFile(geminiLogs, '[{"message":"a prompt"}]\n');
    expect(await loaded()).toEqual([]);
    // Control: a session index line is what Codex's discovery reads.
    await fs.appendFile(path.join(home.home, ".codex", "session_index.jsonl"), "{}\n");
    expect(await loaded()).toEqual(["codex"]);
  });

  it("loads no keeper socket code when no keeper is asked for (control: TXCRIPT_SEARCH_KEEPER=only does)", async () => {
    await stock();
    const plain = await withLoadedSources(home, ["search", "exclusive"], only.env);
    expect(plain.result.code, plain.result.stderr).toBe(0);
    expect(plain.result.stdout).toContain(thread);
    expect(plain.imported).not.toContain("node:net");
    expect(plain.sources).not.toContain("src/search-client.ts");
    // Control: asking for a keeper loads the client and its socket (none runs: 125, not answered).
    const kept = await withLoadedSources(home, ["search", "exclusive"], {
      ...only.env,
      TXCRIPT_SEARCH_KEEPER: "only",
    });
    expect(kept.result.code).toBe(125);
    expect(kept.imported).toContain("node:net");
    expect(kept.sources).toContain("src/search-client.ts");
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

/** Run the bin with a module hook that lists every module it loads: the source files of those (e2e.ts). */
const withLoadedSources = (home: Home, args: string[], env: Record<string, string>) =>
  runWithLoadLog(home, args, env);

/**
 * Whether a harness package was loaded: any module of it but its `./store-root` (where its store
 * is, node:os and node:path only), which every search reads.
 */
function harnessLoaded(sources: readonly string[], name: string): boolean {
  return sources.some((file) => file.startsWith(`../${name}/`) && !file.endsWith("-store-root.ts"));
}

/** The source files (from build-meta.json) of a chunk and every chunk it imports statically. */
function chunkSources(start: string): { sources: string[]; bytes: number } {
  const seen = new Set<string>();
  const sources: string[] = [];
  let bytes = 0;
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    bytes += text.length;
    sources.push(...bundledSources(file));
    // esbuild writes `from"./x.js"`, Rollup `from './x.js'` and `import './x.js'`.
    for (const match of text.matchAll(/(?:\bfrom|\bimport)\s*["'](\.[^"']+)["']/g))
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
    // The dispatcher itself (main-) loads no zod either (start-up.test.ts); its
    // `search` command's chunk loads codecs (the control for the filter above),
    // and the `schema` command's loads zod (the control for zod).
    const chunkOf = (command: string) =>
      chunkSources(
        path.join(
          chunks,
          readdirSync(chunks).find((name) =>
            new RegExp(`^${command}-[a-z0-9]+\\.js$`).test(name),
          ) as string,
        ),
      );
    const search = chunkOf("search");
    expect(search.sources).toContain("src/commands/search.ts");
    expect(search.sources.some((file) => /\/core\/src\/(?!errors)|codec/.test(file))).toBe(true);
    const schema = chunkOf("schema");
    expect(schema.sources).toContain("src/commands/schema.ts");
    expect(schema.sources.some((file) => file.includes("zod"))).toBe(true);
  });

  it("bundles zod's English locale and no other (control: zod's classic API is bundled)", () => {
    const sources = readdirSync(chunks)
      .filter((name) => name.endsWith(".js"))
      .flatMap((name) => bundledSources(path.join(chunks, name)));
    expect(sources.some((file) => file.endsWith("/zod/v4/classic/schemas.js"))).toBe(true);
    const locales = sources.filter((file) => /\/zod\/v4\/locales\/[^/]+\.js$/.test(file));
    expect(locales.length).toBeGreaterThan(0);
    expect(locales.filter((file) => !file.endsWith("/locales/en.js"))).toEqual([]);
  });
});
