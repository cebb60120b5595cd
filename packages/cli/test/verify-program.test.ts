// `txcript continue --verify` with the pinned real programs put on PATH:
// Codex and Claude Code take the written session and the result names the
// program's path and version; the controls fail: a session broken after it
// was saved (a harness whose store corrupts the file on disk while its
// read-back still sees what was meant) fails the check and leaves nothing,
// and with no program on PATH the command fails before writing anything.
// In process (main with a registry), so the real programs see the sources
// of this checkout, not a build.
import { existsSync, promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import type { HarnessDefinition, Store } from "@txcript/core";
import { defaultRegistry } from "@txcript/harnesses";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Io } from "../src/io.js";
import { main } from "../src/main.js";
import { CommandResultSchema } from "../src/result-schema.js";
import { sampleTranscript } from "./sample.js";

const programs = (await import(
  new URL("../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
  realPrograms: Record<string, { version: string }>;
};

const codexHarness = defaultRegistry.find("codex");

/** A Codex store that breaks the file after saving it; its read-back still sees what was meant. */
function breakingStore(inner: Store<unknown>): Store<unknown> {
  const saved = new Map<string, unknown>();
  return new Proxy(inner, {
    get(target, key) {
      if (key === "save")
        return async (native: unknown, options: Parameters<Store<unknown>["save"]>[1]) => {
          const result = await target.save(native, options);
          saved.set(result.id, native);
          await fs.writeFile(result.path, '{"type":"not a rollout"}\n');
          return result;
        };
      if (key === "load")
        return async (id: string) => (saved.has(id) ? saved.get(id) : target.load(id));
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
const breakingCodex: HarnessDefinition = {
  ...codexHarness,
  id: "breaking_codex",
  displayName: "Codex rollout (broken after saving)",
  aliases: [],
  store: (environment, root) =>
    breakingStore(codexHarness.store?.(environment, root) as Store<unknown>),
};
const registry = defaultRegistry.with(breakingCodex);

let root: string;
let project: string;
let source: string;
let io: Io;

async function run(env: Record<string, string>, ...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => {
    out += chunk;
  });
  stderr.on("data", (chunk) => {
    err += chunk;
  });
  const code = await main(
    args,
    { ...io, env: { ...io.env, ...env }, stdout, stderr },
    "0.0.0-test",
    { registry },
  );
  return { code, stdout: out, stderr: err };
}

async function filesUnder(directory: string): Promise<string[]> {
  if (!existsSync(directory)) return [];
  const entries = await fs.readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(tmpdir(), "txcript-verify-"));
  project = path.join(root, "project");
  const home = path.join(root, "home");
  await fs.mkdir(project, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  source = path.join(root, "sample.common.json");
  const document = {
    format: "txcript.common/v1",
    ...sampleTranscript,
    meta: { ...sampleTranscript.meta, cwd: project },
  };
  await fs.writeFile(source, `${JSON.stringify(document, null, 2)}\n`);
  io = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {
      HOME: home,
      CODEX_HOME: path.join(home, ".codex"),
      CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
      XDG_DATA_HOME: path.join(root, "data"),
      PATH: process.env.PATH ?? "/usr/bin:/bin",
    },
    cwd: root,
  };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const targets = [
  { target: "codex", program: "codex", store: "CODEX_HOME" },
  { target: "claude_code", program: "claude", store: "CLAUDE_CONFIG_DIR" },
  { target: "pi", program: "pi", store: "HOME" },
  { target: "gemini_cli", program: "gemini", store: "HOME" },
  { target: "opencode", program: "opencode", store: "XDG_DATA_HOME" },
  { target: "copilot_cli", program: "copilot", store: "HOME" },
  { target: "qwen_code", program: "qwen", store: "HOME" },
] as const;

for (const { target, program, store } of targets) {
  const bin = programs.programBin(program);
  const reason = bin === undefined ? (programs.programSkipReason(program) ?? "not installed") : "";
  if (bin === undefined) console.warn(`SKIPPED continue --verify --with ${target}: ${reason}`);
  const version = programs.realPrograms[program]?.version ?? "?";
  describe.skipIf(bin === undefined)(
    `continue --verify --with ${target} (${program} ${version} on PATH)${reason ? ` (skipped: ${reason})` : ""}`,
    () => {
      const onPath = () => `${path.dirname(bin as string)}${path.delimiter}${process.env.PATH}`;

      it("passes, names the program's path and version, and keeps the session", async () => {
        const result = await run(
          { PATH: onPath() },
          "continue",
          source,
          "--with",
          target,
          "--verify",
          "--no-resume",
          "--json",
        );
        expect(result.code, result.stderr).toBe(0);
        const json = CommandResultSchema.parse(JSON.parse(result.stdout));
        expect(json.verified?.program).toBe(program);
        expect(json.verified?.path).toBe(path.join(path.dirname(bin as string), program));
        expect(json.verified?.version).toContain(version);
        expect(json.verified?.detail).toMatch(/sent|opened|resumed|exported/);
        const written = json.outputs[0]?.path as string;
        expect(existsSync(written)).toBe(true);
        expect(written.startsWith(io.env[store] as string)).toBe(true);
      }, 120_000);

      it("with no program on PATH fails before writing anything (exit 1)", async () => {
        const empty = path.join(root, "empty-bin");
        await fs.mkdir(empty);
        const result = await run(
          { PATH: empty },
          "continue",
          source,
          "--with",
          target,
          "--verify",
          "--no-resume",
        );
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(
          `${program} not found on PATH; install it or drop --verify; nothing was written`,
        );
        expect(await filesUnder(io.env[store] as string)).toEqual([]);
      });
    },
  );
}

const codexBin = programs.programBin("codex");
describe.skipIf(codexBin === undefined)(
  "continue --verify on a session broken after saving (the control)",
  () => {
    it("fails the check, removes what was written (exit 70) and says what Codex reported", async () => {
      const result = await run(
        { PATH: `${path.dirname(codexBin as string)}${path.delimiter}${process.env.PATH}` },
        "continue",
        source,
        "--with",
        "breaking_codex",
        "--verify",
        "--no-resume",
      );
      expect(result.code, result.stderr).toBe(70);
      expect(result.stderr).toMatch(
        /codex codex-cli [\d.]+ \(.*\) does not take the breaking_codex session written to .*: not opened: .*; it was removed/,
      );
      expect(await filesUnder(path.join(io.env.CODEX_HOME as string, "sessions"))).toEqual([]);
      // Without --verify the same broken write passes the read-back: only the program catches it.
      const unchecked = await run(
        {},
        "continue",
        source,
        "--with",
        "breaking_codex",
        "--no-resume",
      );
      expect(unchecked.code, unchecked.stderr).toBe(0);
    }, 120_000);
  },
);

describe.skipIf(codexBin === undefined)("TXCRIPT_VERIFY_CODEX_BIN", () => {
  it("names the program to check with, off PATH", async () => {
    const named = path.join(root, "my-codex");
    await fs.symlink(codexBin as string, named);
    const result = await run(
      { TXCRIPT_VERIFY_CODEX_BIN: named },
      "continue",
      source,
      "--with",
      "codex",
      "--verify",
      "--no-resume",
      "--json",
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).verified.path).toBe(named);
  }, 120_000);

  it("naming something that is not a program fails before writing anything (exit 1)", async () => {
    const result = await run(
      { TXCRIPT_VERIFY_CODEX_BIN: source },
      "continue",
      source,
      "--with",
      "codex",
      "--verify",
      "--no-resume",
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `TXCRIPT_VERIFY_CODEX_BIN names ${source}, which is not an executable file`,
    );
    expect(await filesUnder(io.env.CODEX_HOME as string)).toEqual([]);
  });
});

describe("continue --verify where txcript has no check with the program", () => {
  it("is refused before writing", async () => {
    const { programCheck: _none, ...rest } = codexHarness;
    const harness: HarnessDefinition = { ...rest, id: "unchecked_codex", aliases: [] };
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = "";
    stderr.on("data", (chunk) => {
      err += chunk;
    });
    const code = await main(
      ["continue", source, "--with", harness.id, "--verify", "--no-resume"],
      { ...io, stdout, stderr },
      "0.0.0-test",
      { registry: registry.with(harness) },
    );
    expect(code).toBe(2);
    expect(err).toContain("--verify: txcript has no offline check");
    expect(await filesUnder(io.env.CODEX_HOME as string)).toEqual([]);
  });
});
