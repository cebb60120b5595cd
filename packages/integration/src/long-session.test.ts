// Issue 18's scenario, end to end through the built `txcript`: a generated
// session of about 5M tokens with 100 compactions continues into Claude
// Code and into Codex. By default it starts from the last compaction (the
// written session holds the last summary and what follows, and a note that
// says so); with --budget 150000 (and with --full --budget 150000, the whole
// 5M replayed) the written session, read back through the target's codec
// and counted as the CLI counts it, is within 150000 tokens, every tool call
// has its result and every result its call, and nothing of the source is
// missing from what was written and the archive `.txcript/<id>/` together
// (its index names every message that was cut). Each run passes --verify,
// so the real Claude Code and Codex (the pinned builds, put on PATH) must
// find the written session; without them that part is skipped, visibly.
// The same session in Claude Code's own JSONL also continues by the
// streaming path (TXCRIPT_STREAM_MIN_BYTES=0), with the same checks.
import { existsSync, promises as fs } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { claudeCodeCodec } from "@txcript/claude-code";
import { blockText, commonCodec, estimateTokens, type Transcript } from "@txcript/core";
import { defaultRegistry } from "@txcript/harnesses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programBin, programSkipReason } from "../../../scripts/real-programs.mjs";
import { longSession } from "./long-session.js";
import { repoRoot, run } from "./workspace.js";

const cliBin = path.join(repoRoot, "packages/cli/dist/txcript.js");
const budget = 150_000;

let root: string;
let project: string;
let sourceFile: string;
let source: Transcript;
/** The same session in Claude Code's own format, and what txcript reads from it. */
let claudeFile: string;
let claudeSource: Transcript;

beforeAll(async () => {
  if (!existsSync(cliBin))
    throw new Error(`${cliBin} is missing: run \`pnpm --filter @txcript/cli build\` first`);
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-long-session-"));
  project = path.join(root, "project");
  await fs.mkdir(project, { recursive: true });
  source = longSession({ cwd: project });
  sourceFile = path.join(root, "long.common.json");
  await fs.writeFile(sourceFile, commonCodec.serialize(commonCodec.fromCommon(source)));
  claudeFile = path.join(root, "long.jsonl");
  const claudeText = claudeCodeCodec.serialize(claudeCodeCodec.fromCommon(source));
  await fs.writeFile(claudeFile, claudeText);
  claudeSource = claudeCodeCodec.toCommon(claudeCodeCodec.parse(claudeText));
}, 60_000);
afterAll(async () => {
  if (root) await fs.rm(root, { recursive: true, force: true });
});

/** The CLI's counter for a target (packages/cli/src/context-budget.ts): o200k_base for Codex, else the estimate. */
async function counterFor(target: string): Promise<(text: string) => number> {
  if (target !== "codex") return estimateTokens;
  const require = createRequire(path.join(repoRoot, "packages/cli/package.json"));
  const { countTokens } = (await import(require.resolve("gpt-tokenizer/encoding/o200k_base"))) as {
    countTokens: (text: string, options: object) => number;
  };
  const options = { disallowedSpecial: new Set<string>() };
  return (text) => {
    let total = 0;
    for (let start = 0; start < text.length; start += 2000)
      total += countTokens(text.slice(start, start + 2000), options);
    return total;
  };
}

/** Tokens of a transcript as the budget counts them: 4 a message plus its blocks' texts. */
function tokensOf(transcript: Transcript, count: (text: string) => number): number {
  let total = 0;
  for (const message of transcript.messages) {
    total += 4;
    for (const block of message.content)
      total += block.type === "image" ? 1600 : count(blockText(block));
  }
  return total;
}

/** Every text of a message: texts, reasoning, summaries, tool inputs and outputs. */
function atomsOf(message: Transcript["messages"][number]): string[] {
  return message.content.map((block) => (block.type === "tool_use" ? block.id : blockText(block)));
}

interface Continued {
  json: {
    outputs: { harness: string; path: string; sessionId?: string }[];
    verified?: { program: string; path: string; version: string; detail: string };
  };
  stderr: string;
  written: Transcript;
  archive: string | undefined;
}

const programs = { claude_code: "claude", codex: "codex" } as const;

interface From {
  file: string;
  transcript: Transcript;
  env?: Record<string, string>;
}

async function continueInto(
  target: keyof typeof programs,
  label: string,
  flags: string[],
  from: From = { file: sourceFile, transcript: source },
): Promise<Continued> {
  const home = path.join(root, `${target}-${label}`);
  await fs.mkdir(home, { recursive: true });
  const bin = programBin(programs[target]);
  const env = {
    PATH: `${bin === undefined ? "" : `${path.dirname(bin)}${path.delimiter}`}${process.env.PATH}`,
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    CODEX_HOME: path.join(home, ".codex"),
    XDG_DATA_HOME: path.join(home, ".local/share"),
    ...from.env,
  };
  const args = [cliBin, "continue", from.file, "--with", target, "--no-resume", "--json"];
  if (bin !== undefined) args.push("--verify");
  const { stdout, stderr } = await run(process.execPath, [...args, ...flags], {
    cwd: root,
    env,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 110_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `txcript continue --with ${target} ${flags.join(" ")} failed: ${error.stderr ?? error.message}`,
    );
  });
  const json = JSON.parse(stdout) as Continued["json"];
  const output = json.outputs.find((entry) => entry.harness === target);
  const harness = defaultRegistry.find(target);
  const store = harness.store?.(env);
  if (output?.sessionId === undefined || store === undefined)
    throw new Error("nothing was written");
  const written = harness.codec.toCommon(await store.load(output.sessionId)) as Transcript;
  return {
    json,
    stderr,
    written,
    archive: json.outputs.find((entry) => entry.harness === "common")?.path,
  };
}

function expectPaired(written: Transcript): void {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of written.messages)
    for (const block of message.content) {
      if (block.type === "tool_use") calls.add(block.id);
      if (block.type === "tool_result") {
        expect(
          calls.has(block.toolUseId),
          `result ${block.toolUseId} before or without its call`,
        ).toBe(true);
        results.add(block.toolUseId);
      }
    }
  expect([...calls].filter((id) => !results.has(id))).toEqual([]);
  expect([...results].filter((id) => !calls.has(id))).toEqual([]);
}

/** Every source text is in the written session or the archive, and the index names every message not kept whole. */
async function expectArchived(
  written: Transcript,
  archive: string | undefined,
  original: Transcript = source,
): Promise<void> {
  const kept = new Set(written.messages.flatMap(atomsOf));
  const whole = (message: Transcript["messages"][number]) =>
    atomsOf(message).every((atom) => kept.has(atom));
  const cut = original.messages.flatMap((message, index) => (whole(message) ? [] : [index + 1]));
  expect(cut.length).toBeGreaterThan(0);
  expect(archive, "something was cut, so there is an archive").toBeDefined();
  const archived = commonCodec.toCommon(
    commonCodec.parse(
      await fs.readFile(path.join(archive as string, "transcript.common.json"), "utf8"),
    ),
  );
  const inArchive = new Set(archived.messages.flatMap(atomsOf));
  const missing = original.messages
    .flatMap(atomsOf)
    .filter((atom) => !kept.has(atom) && !inArchive.has(atom));
  expect(missing.length, `missing from written ∪ archive: ${missing[0]?.slice(0, 80)}`).toBe(0);
  const index = await fs.readFile(path.join(archive as string, "index.md"), "utf8");
  const before = /messages #1-(\d+): before the last compaction/.exec(index);
  const listed = new Set(
    [...index.matchAll(/^- message #(\d+):/gm)].map((match) => Number(match[1])),
  );
  const unlisted = cut.filter(
    (ordinal) => !(before && ordinal <= Number(before[1])) && !listed.has(ordinal),
  );
  expect(unlisted, "messages cut but not in index.md").toEqual([]);
}

/** Each target's runs, for the check that the real program found every one. */
const results = new Map<string, Continued[]>();
function expectVerified(result: Continued, target: keyof typeof programs): void {
  results.set(target, [...(results.get(target) ?? []), result]);
}

const lastSummary = (original: Transcript = source) => {
  const block = original.messages.findLast((message) => message.content[0]?.type === "compaction")
    ?.content[0];
  return block?.type === "compaction" ? block.summary : "";
};

/** What a default continue wrote: the last summary and what follows, nothing before, a note saying so. */
async function expectFromLastCompaction(result: Continued, original: Transcript): Promise<void> {
  const atoms = new Set(result.written.messages.flatMap(atomsOf));
  expect(atoms.has(lastSummary(original))).toBe(true);
  const last = original.messages.at(-4);
  for (const atom of last ? atomsOf(last) : ["no last prompt"]) expect(atoms.has(atom)).toBe(true);
  // Nothing before the last compaction is in it.
  const first = original.messages[0];
  for (const atom of first ? atomsOf(first) : []) expect(atoms.has(atom)).toBe(false);
  const note = result.written.messages.find((message) =>
    message.content.some(
      (block) =>
        block.type === "text" &&
        block.text.startsWith("[txcript] Parts of this conversation were left out"),
    ),
  );
  expect(note, "the written session says what was left out").toBeDefined();
  expect(JSON.stringify(note)).toContain("messages before the last compaction");
  expectPaired(result.written);
  await expectArchived(result.written, result.archive, original);
}

describe("a generated session of 100 compactions", () => {
  it("has 100 compactions, each alone in a user message, and about 5M tokens", () => {
    const compactions = source.messages.filter((message) =>
      message.content.some((block) => block.type === "compaction"),
    );
    expect(compactions).toHaveLength(100);
    for (const message of compactions)
      expect([message.role, message.content.length]).toEqual(["user", 1]);
    const tokens = tokensOf(source, estimateTokens);
    expect(tokens).toBeGreaterThan(4_800_000);
    expect(tokens).toBeLessThan(5_500_000);
    expect(longSession({ cwd: project })).toEqual(source);
  });
});

describe("the checks can fail (the controls)", () => {
  it("a call without its result, or a result without its call, fails the pairing check", () => {
    const turn = source.messages.slice(1, 5);
    expect(() => expectPaired({ ...source, messages: turn })).not.toThrow();
    expect(() => expectPaired({ ...source, messages: turn.slice(0, 1) })).toThrow();
    expect(() => expectPaired({ ...source, messages: turn.slice(1) })).toThrow();
  });

  it("a cut message missing from the archive, or from its index, fails the archive check", async () => {
    const archive = path.join(root, "control-archive");
    await fs.mkdir(archive, { recursive: true });
    const written: Transcript = { ...source, messages: source.messages.slice(-4) };
    const cutTo = source.messages.length - 4;
    const writeArchive = async (messages: Transcript["messages"], index: string) => {
      await fs.writeFile(
        path.join(archive, "transcript.common.json"),
        commonCodec.serialize(commonCodec.fromCommon({ ...source, messages })),
      );
      await fs.writeFile(path.join(archive, "index.md"), index);
    };
    const index = `- messages #1-${cutTo}: before the last compaction\n`;
    await writeArchive(source.messages, index);
    await expect(expectArchived(written, archive)).resolves.toBeUndefined();
    await writeArchive(source.messages.slice(1), index);
    await expect(expectArchived(written, archive)).rejects.toThrow(/missing from written/);
    await writeArchive(source.messages, `- messages #1-${cutTo - 1}: before the last compaction\n`);
    await expect(expectArchived(written, archive)).rejects.toThrow(/not in index.md/);
  });
});

for (const target of ["claude_code", "codex"] as const) {
  const program = programs[target];
  const reason =
    programBin(program) === undefined
      ? (programSkipReason(program) ?? `${program} is not installed`)
      : undefined;
  if (reason) console.warn(`SKIPPED the real ${program} check of the long session: ${reason}`);
  describe(`continue into ${target}`, () => {
    it("by default starts from the last compaction, and says so", async () => {
      const result = await continueInto(target, "default", []);
      await expectFromLastCompaction(result, source);
      expectVerified(result, target);
    }, 120_000);

    for (const flags of [
      ["--budget", String(budget)],
      ["--full", "--budget", String(budget)],
    ]) {
      it(`with ${flags.join(" ")} fits, keeps every call with its result, and archives what was cut`, async () => {
        const result = await continueInto(target, flags.join("").replaceAll("-", ""), flags);
        const count = await counterFor(target);
        const tokens = tokensOf(result.written, count);
        expect(tokens).toBeLessThanOrEqual(budget);
        expect(tokens).toBeGreaterThan(budget / 2);
        expect(result.written.messages.length).toBeGreaterThan(4);
        expectPaired(result.written);
        await expectArchived(result.written, result.archive);
        expectVerified(result, target);
      }, 120_000);
    }

    it.skipIf(reason !== undefined)(
      `is found by the real ${program} in every run above${reason ? ` (skipped: ${reason})` : ""}`,
      () => {
        const runs = results.get(target) ?? [];
        expect(runs).toHaveLength(3);
        for (const result of runs) {
          expect(result.json.verified?.program).toBe(program);
          expect(result.json.verified?.path).toBe(
            path.join(path.dirname(programBin(program) as string), program),
          );
          expect(result.json.verified?.version).toMatch(/\d+\.\d+\.\d+/);
          expect(result.json.verified?.detail).toMatch(/sent/);
        }
      },
    );
  });
}

describe("the same session in Claude Code's own format, streamed (TXCRIPT_STREAM_MIN_BYTES=0)", () => {
  it("reads back as the generated session's 100 compactions and every text Claude Code keeps", () => {
    const compactions = claudeSource.messages.filter((message) =>
      message.content.some((block) => block.type === "compaction"),
    );
    expect(compactions).toHaveLength(100);
    const texts = new Set(claudeSource.messages.flatMap(atomsOf));
    // Reasoning without a signature is not written (claude_code's documented normalization).
    const kept = defaultRegistry.find("claude_code").project(source) as Transcript;
    const missing = kept.messages.flatMap(atomsOf).filter((atom) => !texts.has(atom));
    expect(missing.map((atom) => atom.slice(0, 60))).toEqual([]);
  });

  for (const target of ["claude_code", "codex"] as const)
    it(`continues into ${target} from its last compaction, streamed`, async () => {
      const result = await continueInto(target, "streamed", [], {
        file: claudeFile,
        transcript: claudeSource,
        env: { TXCRIPT_STREAM_MIN_BYTES: "0" },
      });
      await expectFromLastCompaction(result, claudeSource);
      if (programBin(programs[target]) !== undefined)
        expect(result.json.verified?.detail).toMatch(/sent/);
    }, 120_000);
});
