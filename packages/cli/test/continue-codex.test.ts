// `txcript continue --with codex` on what broke it (issue 32): an OpenAI
// reasoning block with no text whose encrypted content the text-only write
// drops (the real Amp export has one) is kept as an empty reasoning item, so
// the read-back agrees and the command succeeds, and the pinned Codex opens
// the result; and a continue that fails after saving leaves nothing behind:
// no rollout, no session_index.jsonl line, no dated directories.
// The built bin for the road users walk; in process (main with a registry)
// where a harness has to be broken on purpose.
import { existsSync, promises as fs, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import type { HarnessDefinition, Store, Transcript } from "@txcript/core";
import { signature } from "@txcript/core";
import { defaultRegistry } from "@txcript/harnesses";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Io } from "../src/io.js";
import { main } from "../src/main.js";
import { assertBuilt, type Home, makeHome, realRoot, removeHome, txcript } from "./e2e.js";

const codexHarness = defaultRegistry.find("codex");
const codexCodec = codexHarness.codec;
const codexProject = codexHarness.project;

const programs = (await import(
  new URL("../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
};

const ampExport = path.join(realRoot, "amp-export-convo.json");
const hasAmpExport = existsSync(ampExport);
if (!hasAmpExport) console.warn(`SKIPPED continue of the real Amp export: ${ampExport} is absent`);
const codexBin = programs.programBin("codex");
if (codexBin === undefined)
  console.warn(
    `SKIPPED the pinned Codex checks: ${programs.programSkipReason("codex") ?? "not installed"}`,
  );

/** Every file under a directory, relative to it. */
async function filesUnder(directory: string): Promise<string[]> {
  if (!existsSync(directory)) return [];
  const entries = await fs.readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)));
}

/** The thinking blocks of a transcript, in order. */
function thinkingOf(transcript: Transcript): string[] {
  return transcript.messages.flatMap((message) =>
    message.content.flatMap((block) => (block.type === "thinking" ? [block.text] : [])),
  );
}

/** A session whose only reasoning is OpenAI's with no text: only its encrypted content. */
const emptyReasoning: Transcript = {
  meta: {
    id: "T-empty-reasoning",
    timestamp: "2026-03-01T10:00:00.000Z",
    title: "Empty reasoning",
  },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "Say hi." }],
      timestamp: "2026-03-01T10:00:00.000Z",
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", text: "", encrypted: "gAAAAB-opaque", provider: "openai" },
        { type: "text", text: "hi" },
      ],
      timestamp: "2026-03-01T10:00:01.000Z",
      model: "gpt-5",
    },
  ],
};

describe("continue --with codex (built bin)", () => {
  let home: Home;
  let codexHome: string;
  beforeAll(assertBuilt);
  beforeEach(async () => {
    home = await makeHome();
    codexHome = path.join(home.home, ".codex");
  });
  afterEach(async () => {
    await removeHome(home);
  });

  async function continued(source: string, extra: string[] = [], env = {}) {
    const result = await txcript(
      home,
      ["continue", source, "--with", "codex", "--no-resume", "--json", ...extra],
      { env: { CODEX_HOME: codexHome, ...env } },
    );
    return result;
  }

  it("a generated session with empty OpenAI reasoning: kept as an empty reasoning item (exit 0)", async () => {
    const source = path.join(home.work, "empty-reasoning.common.json");
    await fs.writeFile(
      source,
      JSON.stringify({
        format: "txcript.common/v2",
        ...emptyReasoning,
        meta: { ...emptyReasoning.meta, cwd: home.work },
      }),
    );
    const result = await continued(source);
    expect(result.code, result.stderr).toBe(0);
    const written = JSON.parse(result.stdout).outputs[0].path as string;
    const text = readFileSync(written, "utf8");
    // Written text-only (not a Codex source): no encrypted content, an empty summary.
    expect(text).not.toContain("gAAAAB-opaque");
    const reasoning = text
      .split("\n")
      .filter((line) => line.includes('"type":"reasoning"'))
      .map((line) => JSON.parse(line).payload);
    expect(reasoning).toEqual([
      { type: "reasoning", summary: [], content: null, encrypted_content: null },
    ]);
    const back = codexCodec.toCommon(codexCodec.parse(text));
    expect(thinkingOf(back)).toEqual([""]);
  });

  it.skipIf(!hasAmpExport)(
    "the real Amp export (amp-export-convo.json): exit 0, every reasoning block read back, one index line",
    async () => {
      const result = await continued(ampExport);
      expect(result.code, result.stderr).toBe(0);
      const written = JSON.parse(result.stdout).outputs[0].path as string;
      const back = codexCodec.toCommon(codexCodec.parse(readFileSync(written, "utf8")));
      // Counted from the export itself: Amp keeps reasoning as content blocks of type "thinking".
      const amp = JSON.parse(readFileSync(ampExport, "utf8")) as {
        messages: { content: { type: string; thinking?: string }[] }[];
      };
      const thinking = amp.messages.flatMap((message) =>
        message.content
          .filter((block) => block.type === "thinking")
          .map((block) => block.thinking ?? ""),
      );
      expect(thinking).toContain("");
      expect(thinkingOf(back)).toEqual(thinking);
      const index = readFileSync(path.join(codexHome, "session_index.jsonl"), "utf8");
      expect(index.trim().split("\n")).toHaveLength(1);
    },
  );

  it.skipIf(!hasAmpExport || codexBin === undefined)(
    "the real Amp export: the pinned Codex opens the continued session offline (--verify)",
    async () => {
      const result = await continued(ampExport, ["--verify"], {
        TXCRIPT_VERIFY_CODEX_BIN: codexBin,
      });
      expect(result.code, result.stderr).toBe(0);
      const json = JSON.parse(result.stdout);
      expect(json.verified.program).toBe("codex");
      expect(json.verified.detail).toMatch(/opened the session and sent its turn/);
    },
    120_000,
  );
});

/** Codex whose read-back can never agree: its project adds a message no rollout has. */
const misreadCodex: HarnessDefinition = (() => {
  const codex = codexHarness;
  return {
    ...codex,
    id: "misread_codex",
    displayName: "Codex rollout (read back wrong)",
    aliases: [],
    project: (transcript: Transcript) => {
      const projected = codexProject(transcript);
      return {
        ...projected,
        messages: [
          ...projected.messages,
          {
            role: "user" as const,
            content: [{ type: "text" as const, text: "a message no rollout holds" }],
            timestamp: transcript.meta.timestamp,
          },
        ],
      };
    },
  };
})();

/** Codex whose store breaks the file after saving it; its read-back still sees what was meant. */
const breakingCodex: HarnessDefinition = (() => {
  const codex = codexHarness;
  return {
    ...codex,
    id: "broken_codex",
    displayName: "Codex rollout (broken after saving)",
    aliases: [],
    store: (environment, root) => {
      const inner = codex.store?.(environment, root) as Store<unknown>;
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
    },
  };
})();

describe("a continue --with codex that fails after saving leaves nothing behind (in process)", () => {
  let root: string;
  let codexHome: string;
  let source: string;
  let io: Io;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(tmpdir(), "txcript-continue-codex-"));
    codexHome = path.join(root, "home", ".codex");
    await fs.mkdir(path.join(root, "home"));
    source = path.join(root, "session.common.json");
    await fs.writeFile(
      source,
      JSON.stringify({
        format: "txcript.common/v2",
        ...emptyReasoning,
        meta: { ...emptyReasoning.meta, cwd: root },
      }),
    );
    io = {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      env: {
        HOME: path.join(root, "home"),
        CODEX_HOME: codexHome,
        PATH: process.env.PATH ?? "/usr/bin:/bin",
      },
      cwd: root,
    };
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  async function run(env: Record<string, string>, ...args: string[]) {
    const stderr = new PassThrough();
    let err = "";
    stderr.on("data", (chunk) => {
      err += chunk;
    });
    const registry = defaultRegistry.with(misreadCodex).with(breakingCodex);
    const code = await main(
      args,
      { ...io, env: { ...io.env, ...env }, stdout: new PassThrough(), stderr },
      "0.0.0-test",
      { registry },
    );
    return { code, stderr: err };
  }

  it("a failed read-back (exit 70) removes the rollout, its session_index.jsonl line and directories", async () => {
    // An index Codex kept before: its line stays, byte for byte.
    await fs.mkdir(codexHome, { recursive: true });
    const theirs = '{"id":"019a93b9-f380-7600-98ff-940e6b99603c","thread_name":"theirs"}\n';
    await fs.writeFile(path.join(codexHome, "session_index.jsonl"), theirs);
    const result = await run({}, "continue", source, "--with", "misread_codex", "--no-resume");
    expect(result.code, result.stderr).toBe(70);
    expect(result.stderr).toMatch(/does not read back as the conversation: .*; it was removed/);
    expect(readFileSync(path.join(codexHome, "session_index.jsonl"), "utf8")).toBe(theirs);
    expect(await filesUnder(codexHome)).toEqual(["session_index.jsonl"]);
    expect(existsSync(path.join(codexHome, "sessions"))).toBe(false);
    // Control: the same session through the real Codex harness is kept, with its index line.
    const kept = await run({}, "continue", source, "--with", "codex", "--no-resume");
    expect(kept.code, kept.stderr).toBe(0);
    expect(readFileSync(path.join(codexHome, "session_index.jsonl"), "utf8")).toMatch(
      /"thread_name":"Empty reasoning"/,
    );
  });

  it.skipIf(codexBin === undefined)(
    "a session the pinned Codex refuses (--verify, exit 70) leaves no index line, rollout or directory",
    async () => {
      const result = await run(
        { TXCRIPT_VERIFY_BROKEN_CODEX_BIN: codexBin as string },
        "continue",
        source,
        "--with",
        "broken_codex",
        "--verify",
        "--no-resume",
      );
      expect(result.code, result.stderr).toBe(70);
      expect(result.stderr).toMatch(/does not take the broken_codex session .*; it was removed/);
      // The Codex home held nothing before: nothing is left in it.
      expect(await filesUnder(codexHome)).toEqual([]);
      expect(existsSync(path.join(codexHome, "sessions"))).toBe(false);
    },
    120_000,
  );
});

describe("the read-back's comparison on the empty reasoning case", () => {
  it("the text-only write reads back with the signature codexProject gives", () => {
    const options = codexHarness.writeOptions?.({ from: "amp" }) ?? {};
    const back = codexCodec.toCommon(
      codexCodec.parse(codexCodec.serialize(codexCodec.fromCommon(emptyReasoning, options))),
    );
    expect(signature(back)).toEqual(signature(codexProject(emptyReasoning)));
  });
});
