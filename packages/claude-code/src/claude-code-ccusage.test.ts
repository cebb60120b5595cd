// Usage tools agree: ccusage 20.0.24 (a pinned dev dependency) counts the
// sessions fromCommon writes exactly as the Common transcripts say, and counts
// Claude Code's own files as toCommon reads them. ccusage drops lines it
// cannot read without a word, so only equal totals prove anything.
import { spawnSync } from "node:child_process";
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Transcript, Usage, Warning } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { ClaudeCodeStore } from "./claude-code-store.js";
import {
  fixtureTranscripts,
  generatedTranscripts,
  type NamedTranscript,
  realDirectory,
  repoRoot,
  totalUsage,
} from "./test-support/interop.js";

const ccusage = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../node_modules/.bin/ccusage",
);

interface CcusageSession {
  sessionId: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

function runCcusage(configDirectory: string): Map<string, Usage> {
  const run = spawnSync(ccusage, ["claude", "session", "--json", "--offline"], {
    encoding: "utf8",
    timeout: 120_000,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: configDirectory,
      CLAUDE_CONFIG_DIR: configDirectory,
    },
  });
  if (run.status !== 0)
    throw new Error(`ccusage failed (${run.status}): ${run.stderr}${run.error ?? ""}`);
  const report = JSON.parse(run.stdout) as { sessions: CcusageSession[] };
  return new Map(
    report.sessions.map((session) => [
      session.sessionId,
      {
        inputTokens: session.inputTokens,
        outputTokens: session.outputTokens,
        cacheReadInputTokens: session.cacheReadTokens,
        cacheCreationInputTokens: session.cacheCreationTokens,
      },
    ]),
  );
}

const zero: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
};

let temporary: string;
beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-ccusage-"));
});
afterAll(async () => {
  await fs.rm(temporary, { recursive: true, force: true });
});

describe("ccusage 20.0.24 counts written sessions as the Common transcript says", () => {
  const sessions: NamedTranscript[] = [
    ...fixtureTranscripts(["amp", "stream-json", "claude-code", "claude-code/store"]),
    ...generatedTranscripts(12, 20),
  ];
  it("reports every session's token totals", async () => {
    const configDirectory = path.join(temporary, "written");
    const store = new ClaudeCodeStore({ root: path.join(configDirectory, "projects") });
    const expected = new Map<string, { name: string; usage: Usage }>();
    for (const { name, transcript } of sessions) {
      const placed: Transcript = {
        ...transcript,
        meta: { ...transcript.meta, cwd: "/tmp/txcript-ccusage" },
      };
      const saved = await store.save(claudeCodeCodec.fromCommon(placed), { overwrite: true });
      expected.set(saved.id, { name, usage: totalUsage(transcript) });
    }
    expect([...expected.values()].some(({ usage }) => usage.outputTokens > 0)).toBe(true);
    const reported = runCcusage(configDirectory);
    for (const [id, { name, usage }] of expected) {
      expect({ name, usage: reported.get(id) ?? zero }).toEqual({ name, usage });
    }
  });
});

describe("ccusage 20.0.24 counts Claude Code's own files as toCommon reads them", () => {
  const natives: { name: string; text: string }[] = [];
  for (const directory of [
    path.join(repoRoot, "fixtures/claude-code"),
    path.join(realDirectory, "claude-code"),
  ]) {
    if (!existsSync(directory)) {
      console.warn(`skipping ${directory}: absent`);
      continue;
    }
    for (const name of readdirSync(directory)
      .filter((entry) => entry.endsWith(".jsonl"))
      .sort())
      natives.push({ name, text: readFileSync(path.join(directory, name), "utf8") });
  }
  it("agrees on every file, except the usage of the lines toCommon leaves out", async () => {
    const configDirectory = path.join(temporary, "native");
    await fs.mkdir(path.join(configDirectory, "projects", "p"), { recursive: true });
    for (const { name, text } of natives)
      await fs.writeFile(path.join(configDirectory, "projects", "p", name), text);
    const reported = runCcusage(configDirectory);
    let compared = 0;
    for (const { name, text } of natives) {
      const warnings: Warning[] = [];
      const transcript = claudeCodeCodec.toCommon(claudeCodeCodec.parse(text), {
        onWarning: (warning) => warnings.push(warning),
      });
      const ours = totalUsage(transcript);
      const theirs = reported.get(name.replace(/\.jsonl$/, "")) ?? zero;
      const leftOut = warnings.some((warning) => warning.code === "claude_code.branch");
      if (leftOut) {
        // Abandoned-branch turns were paid for but are not in the conversation.
        expect(theirs.outputTokens).toBeGreaterThan(ours.outputTokens);
      } else {
        expect({ name, usage: theirs }).toEqual({ name, usage: ours });
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(5);
  });

  it("agrees on a 2.x session whose subagent lines are in its subagents/ files", async () => {
    const configDirectory = path.join(temporary, "native-store");
    const fixtureStore = path.join(repoRoot, "fixtures/claude-code/store");
    await fs.cp(
      path.join(fixtureStore, "-workspace"),
      path.join(configDirectory, "projects", "-workspace"),
      {
        recursive: true,
      },
    );
    const store = new ClaudeCodeStore({ root: path.join(configDirectory, "projects") });
    const id = "5e551011-0000-4000-8000-000000000009";
    const transcript = claudeCodeCodec.toCommon(await store.load(id));
    expect(transcript.subagents?.length).toBe(1);
    const ours = totalUsage(transcript);
    const mainOnly = totalUsage({ ...transcript, subagents: [] });
    // The control: without the subagent's usage the totals differ.
    expect(ours.outputTokens).toBeGreaterThan(mainOnly.outputTokens);
    expect(runCcusage(configDirectory).get(id)).toEqual(ours);
  });
});
