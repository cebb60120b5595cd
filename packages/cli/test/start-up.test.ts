// Start-up loads only what a command touches (issue 34): `view` and
// `convert` of one file sniff it with the light sniffs and import the one
// harness that matched (and the target's, to convert); `--version` loads
// nothing but the bin's entry. A module-resolve hook records every file the
// process loads; the esbuild `// <source>` markers in those chunks say
// which harness packages they hold. No figure here is a time.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
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

const harnessPackages = [
  "amp",
  "claude-code",
  "codex",
  "copilot-cli",
  "crush",
  "cursor-cli",
  "gemini-cli",
  "kimi-cli",
  "opencode",
  "pi",
  "qwen-code",
  "stream-json",
];

const ampThread = path.join(fixturesRoot, "amp", "read-gaps-thread.json");
const claudeSession = path.join(fixturesRoot, "claude-code", "custom-title.jsonl");

/** Run the bin with a resolve hook; the files it loaded, and the source files those hold. */
const loading = (args: string[]) => runWithLoadLog(home, args);

/**
 * The harness packages any module of which was loaded, but for its light `-sniff` and
 * `-store-root` (and Crush's `crush-paths.ts`, which its store root imports: node:os and
 * node:path only). build.mjs bundles every store root into the chunk beside io.ts.
 */
function harnessesLoaded(sources: readonly string[]): string[] {
  return harnessPackages.filter((name) =>
    sources.some(
      (file) =>
        file.startsWith(`../${name}/`) &&
        !file.endsWith("-sniff.ts") &&
        !file.endsWith("-store-root.ts") &&
        file !== "../crush/src/crush-paths.ts",
    ),
  );
}

/**
 * Runs the bin with `source` preloaded (`--import`), which records into `record`: each run
 * clears the record, checks the exit code and gives what was recorded ("" when nothing).
 */
async function preloaded(
  name: string,
  source: (record: string) => string,
): Promise<(args: string[]) => Promise<string>> {
  const record = path.join(home.root, `${name}.txt`);
  const preload = path.join(home.root, `${name}.mjs`);
  await fs.writeFile(preload, source(record));
  return async (args) => {
    await fs.rm(record, { force: true });
    const result = await txcript(home, args, {
      env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` },
    });
    expect(result.code, result.stderr).toBe(0);
    return fs.readFile(record, "utf8").catch(() => "");
  };
}

describe("start-up loads only the harnesses a command touches", () => {
  it("view of an Amp thread loads Amp alone, and every harness's sniff", async () => {
    const { result, sources, files } = await loading(["view", ampThread]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Shapes the reader used to drop silently");
    expect(harnessesLoaded(sources)).toEqual(["amp"]);
    // The sniffs are loaded (detection ran through them), and no registry.
    const sniffs = sources.filter((file) => file.endsWith("-sniff.ts"));
    expect(new Set(sniffs.map((file) => path.basename(file))).size).toBe(13);
    expect(sources).not.toContain("../harnesses/src/index.ts");
    // The sniff list's copies of the sniffs are bundled into its own chunk
    // (build.mjs sniffCopies), not a chunk each: one file holds them all.
    const copies = files.filter((file) =>
      bundledSources(file).some((source) => source.startsWith("sniff-copy:")),
    );
    expect(copies).toHaveLength(1);
    expect(
      bundledSources(copies[0] as string).filter((source) => source.startsWith("sniff-copy:")),
    ).toHaveLength(13);
  });

  it("view of a Claude Code session loads Claude Code and not Amp (the control)", async () => {
    const { result, sources } = await loading(["view", claudeSession]);
    expect(result.code, result.stderr).toBe(0);
    expect(harnessesLoaded(sources)).toEqual(["claude-code"]);
  });

  it("convert loads the input's harness and the target's, --from and --to by alias", async () => {
    const { result, sources } = await loading(["convert", ampThread, "--to", "cc"]);
    expect(result.code, result.stderr).toBe(0);
    expect(harnessesLoaded(sources)).toEqual(["amp", "claude-code"]);
    const forced = await loading(["convert", claudeSession, "--from", "claude", "--to", "codex"]);
    expect(forced.result.code, forced.result.stderr).toBe(0);
    expect(harnessesLoaded(forced.sources)).toEqual(["claude-code", "codex"]);
  });

  it("a stored session's id, which every store is searched for, loads them all (control: the hook sees a full load)", async () => {
    const id = "T-0199bbbb-cccc-7ddd-8eee-ffff00000013";
    await fs.copyFile(ampThread, path.join(home.ampThreads, `${id}.json`));
    const { result, sources } = await loading(["view", id]);
    expect(result.code, result.stderr).toBe(0);
    expect(harnessesLoaded(sources)).toEqual(harnessPackages);
    expect(sources).toContain("../harnesses/src/index.ts");
  });

  it("an input no sniff knows gets the registry's own error, with every harness named", async () => {
    const file = path.join(home.root, "unknown.json");
    await fs.writeFile(file, '{"hello": "world"}\n');
    const { result } = await loading(["view", file]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("cannot tell which harness wrote this input");
    expect(result.stderr).toContain("claude_code");
  });

  it("--help and a command's help load no harness (control: list loads every store's)", async () => {
    for (const args of [["--help"], ["view", "--help"], ["help", "convert"]]) {
      const { result, sources } = await loading(args);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("Usage: txcript");
      expect(harnessesLoaded(sources)).toEqual([]);
      expect(sources).not.toContain("../harnesses/src/index.ts");
    }
    // The main help still lists every harness, with its aliases and resume command.
    const help = (await loading(["--help"])).result.stdout;
    expect(help).toContain("claude_code");
    expect(help).toContain("TXCRIPT_CODEX_RESUME_CMD");
    const list = await loading(["list"]);
    expect(list.result.code, list.result.stderr).toBe(0);
    expect(harnessesLoaded(list.sources)).toEqual(harnessPackages);
  });

  it("--help loads neither zod nor core's schemas (control: a convert into Common loads both)", async () => {
    // main.ts, args.ts, harnesses.ts and report.ts take TxcriptError, closest and
    // HarnessRegistry from @txcript/core's `./errors` and `./harness`, not its index.
    for (const args of [["--help"], ["view", "--help"]]) {
      const { result, sources } = await loading(args);
      expect(result.code, result.stderr).toBe(0);
      expect(sources).toContain("../core/src/errors.ts");
      expect(sources).toContain("../core/src/harness.ts");
      expect(sources.filter((file) => file.includes("/zod/"))).toEqual([]);
      expect(sources).not.toContain("../core/src/model.ts");
      expect(sources).not.toContain("../core/src/index.ts");
    }
    const common = await loading(["convert", ampThread, "--to", "common"]);
    expect(common.result.code, common.result.stderr).toBe(0);
    expect(common.sources).toContain("../core/src/model.ts");
    expect(common.sources.some((file) => file.endsWith("/zod/v4/core/schemas.js"))).toBe(true);
  });

  it("reading and converting between harnesses loads no zod and no Common schema (decision 0018; control: a convert into Common does)", async () => {
    // Tool calls are classified by core's tool-inputs.ts, a Claude Code
    // line's lineage and context by common-values.ts, and build.mjs bundles
    // each import of core's index as imports of the files that define the
    // names, so no command that only reads reaches model.ts or zod.
    const claude = path.join(home.root, "from-amp.jsonl");
    const made = await loading(["convert", ampThread, "--to", "cc", "-o", claude]);
    expect(made.result.code, made.result.stderr).toBe(0);
    // Give the session txcript's own lineage key (as a save into a store
    // writes it), which the reader checks: the Common output below has it.
    const lineage = {
      harness: "amp",
      id: "T-1",
      txcriptVersion: "0.1.0",
      convertedAt: "2026-01-02T03:04:05.006Z",
    };
    const lines = (await fs.readFile(claude, "utf8")).split("\n");
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0] as string), txcriptLineage: lineage });
    await fs.writeFile(claude, lines.join("\n"));
    const stream = path.join(home.root, "from-claude.jsonl");
    const runs = [
      made,
      await loading(["view", ampThread]),
      await loading(["view", claude]),
      await loading(["view", claudeSession]),
      await loading(["convert", claude, "--to", "stream_json", "-o", stream]),
      await loading(["convert", stream, "--to", "amp", "-o", path.join(home.root, "back.json")]),
      await loading(["convert", ampThread, "--to", "pi", "-o", path.join(home.root, "pi.jsonl")]),
    ];
    for (const { result, sources } of runs) {
      expect(result.code, result.stderr).toBe(0);
      expect(sources.filter((file) => file.includes("/zod/"))).toEqual([]);
      expect(sources).not.toContain("../core/src/model.ts");
      expect(sources).not.toContain("../core/src/index.ts");
    }
    // The control: Common's codec validates with the schema, so it loads zod.
    const common = await loading(["convert", claude, "--to", "common"]);
    expect(common.result.code, common.result.stderr).toBe(0);
    expect(JSON.parse(common.result.stdout).meta.lineage).toEqual(lineage);
    expect(common.sources).toContain("../core/src/model.ts");
    expect(common.sources.filter((file) => file.includes("/zod/")).length).toBeGreaterThan(0);
  });

  it("a convert into Common loads only the zod it calls: zod is imported as a namespace, so esbuild drops the rest", async () => {
    // `import { z } from "zod"` makes the bundle build zod's whole namespace
    // object, and with it every module zod has (from-json-schema, the JIT
    // compiler, the coercions); `import * as z` lets esbuild keep what
    // `z.string`, `z.strictObject`, … reach. The control: the schema zod
    // needs for those (core/schemas.js) is loaded, and the hook sees zod.
    const { result, sources } = await loading(["convert", ampThread, "--to", "common"]);
    expect(result.code, result.stderr).toBe(0);
    const zod = sources.filter((file) => file.includes("/zod/v4/"));
    expect(zod.some((file) => file.endsWith("/zod/v4/classic/schemas.js"))).toBe(true);
    for (const unused of [
      "/zod/v4/classic/external.js",
      "/zod/v4/classic/from-json-schema.js",
      "/zod/v4/classic/coerce.js",
      "/zod/v4/core/index.js",
    ])
      expect(zod.filter((file) => file.endsWith(unused))).toEqual([]);
  });

  it("--help, view and a convert that hashes nothing load no node:crypto (control: a convert into Claude Code, whose ids are hashed, does)", async () => {
    // core's files.ts and uuid.ts load it on the first hash (node-builtins.ts); a
    // temporary file's name is random, not hashed (files.ts temporaryName).
    const plain = path.join(home.root, "plain.jsonl");
    for (const args of [
      ["--help"],
      ["view", ampThread],
      ["convert", ampThread, "--to", "stream_json", "-o", plain],
    ]) {
      const { result, builtins } = await loading(args);
      expect(result.code, result.stderr).toBe(0);
      expect(builtins).toContain("node:fs");
      expect(builtins).not.toContain("node:crypto");
    }
    await fs.access(plain);
    const output = path.join(home.root, "out.jsonl");
    const convert = await loading(["convert", ampThread, "--to", "cc", "-o", output]);
    expect(convert.result.code, convert.result.stderr).toBe(0);
    await fs.access(output);
    expect(convert.builtins).toContain("node:crypto");
  });

  it("view and convert load neither node:http nor node:child_process, whatever the harness (control: continue --verify, which starts a stub and a child, loads both)", async () => {
    // Each program check (`*-verify.ts`) starts a Messages stub or a child;
    // core's node-builtins.ts requires those modules on first use.
    const plain = (name: string) => path.join(home.root, name);
    const runs: string[][] = [
      ["view", claudeSession],
      ...["claude_code", "codex", "pi", "gemini_cli", "qwen_code", "copilot_cli", "opencode"].map(
        (target) => ["convert", ampThread, "--to", target, "-o", plain(`out-${target}`)],
      ),
    ];
    for (const args of runs) {
      const { result, builtins } = await loading(args);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
      expect(builtins).toContain("node:fs");
      expect(
        builtins.filter((name) => name === "node:http" || name === "node:child_process"),
        args.join(" "),
      ).toEqual([]);
    }
    // The control: a fake `claude` on PATH answers its version and nothing else, so the
    // check starts its stub (node:http) and the child (node:child_process), then fails.
    const bin = path.join(home.root, "bin");
    await fs.mkdir(bin, { recursive: true });
    await fs.writeFile(
      path.join(bin, "claude"),
      '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; fi\nexit 0\n',
      { mode: 0o755 },
    );
    const check = await runWithLoadLog(
      home,
      ["continue", ampThread, "--with", "claude_code", "--verify", "--no-resume"],
      { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` },
    );
    expect(check.result.stderr).toContain("2.1.332");
    expect(check.builtins).toContain("node:http");
    expect(check.builtins).toContain("node:child_process");
  });

  it("a quiet convert into a file never makes the stdout stream (control: view, which prints, does)", async () => {
    // Node builds process.stdout on first access (for the tests' pipe, with
    // node:net); io.ts processIo makes the streams lazy. A preload wraps the
    // getter and notes the first access (the load hooks of runWithLoadLog
    // load node:net themselves, so the module list cannot tell).
    const touched = await preloaded(
      "stdout-trap",
      (mark) => `import { writeFileSync } from "node:fs";
const own = Object.getOwnPropertyDescriptor(process, "stdout");
Object.defineProperty(process, "stdout", {
  configurable: true,
  enumerable: own.enumerable,
  get() {
    writeFileSync(${JSON.stringify(mark)}, "touched");
    return own.get.call(process);
  },
});
`,
    );
    const output = path.join(home.root, "quiet.jsonl");
    expect(
      await touched(["convert", ampThread, "--to", "stream_json", "-o", output, "--quiet"]),
    ).toBe("");
    await fs.access(output);
    expect(await touched(["view", ampThread])).toBe("touched");
  });

  it("view and convert load the few files build.mjs's chunk plan makes (control: list loads every harness's)", async () => {
    // esbuild alone made a chunk per set of entry points reaching a file:
    // view of this thread loaded 34 files. build.mjs re-chunks with Rollup:
    // the dispatcher, io, the light core files, one file per harness.
    const names = (files: readonly string[]) =>
      files.map((file) => path.basename(file).replace(/-[a-z0-9]+\.js$/, "")).sort();
    const viewed = await loading(["view", ampThread]);
    expect(viewed.result.code, viewed.result.stderr).toBe(0);
    expect(names(viewed.files)).toEqual(["amp", "codecs", "convert", "io", "main", "txcript.js"]);
    const converted = await loading(["convert", claudeSession, "--to", "codex"]);
    expect(converted.result.code, converted.result.stderr).toBe(0);
    expect(names(converted.files)).toEqual(
      ["claude-code", "codecs", "codex", "convert", "io", "main", "txcript.js"].sort(),
    );
    // Control: list reads every store, and loads each harness's one file.
    const listed = await loading(["list"]);
    expect(listed.result.code, listed.result.stderr).toBe(0);
    const listedNames = names(listed.files);
    for (const name of harnessPackages) expect(listedNames).toContain(name);
  });

  it("on a Node with a compile cache (22.1 and later), every command but --version turns it on (control: --version)", async () => {
    // Node 20 has neither process.getBuiltinModule nor module.enableCompileCache: a preload
    // gives this process both, recording each call. On Node 22 the cache lands in TMPDIR.
    const run = await preloaded(
      "compile-cache",
      (calls) => `import { appendFileSync } from "node:fs";
const real = process.getBuiltinModule;
const moduleStub = {
  enableCompileCache() {
    appendFileSync(${JSON.stringify(calls)}, "called\\n");
    return { status: 0 };
  },
};
process.getBuiltinModule = (id) => (id === "node:module" ? moduleStub : real?.(id));
`,
    );
    expect(await run(["view", ampThread])).toBe("called\n");
    expect(await run(["--help"])).toBe("called\n");
    expect(await run(["--version"])).toBe("");
  });

  it("--version loads the bin's entry alone", async () => {
    const { result, files } = await loading(["--version"]);
    expect(result.code).toBe(0);
    expect(files).toEqual([bin]);
  });
});
