// Test support for the interop tests (not shipped): the sessions they write
// (from every fixture's Common document, the real captures and generated
// transcripts), the pinned Claude Code binary (scripts/real-programs.mjs;
// the root test setup installs it into its cache), and the offline
// `claude -p --resume` probe DESIGN.md describes. Nothing here fakes a result: a missing binary is a skip reason.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import {
  commonCodec,
  type Message,
  type Subagent,
  type Transcript,
  type Usage,
} from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { claudeCodeCodec } from "../claude-code-codec.js";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const realDirectory = path.resolve(repoRoot, "../shared/real");

export interface NamedTranscript {
  name: string;
  transcript: Transcript;
}

/** Every `<scenario>.common.json` under fixtures/<harness>/ (Amp, stream-json, Claude Code, ...). */
export function fixtureTranscripts(harnesses: readonly string[]): NamedTranscript[] {
  const out: NamedTranscript[] = [];
  for (const harness of harnesses) {
    const directory = path.join(repoRoot, "fixtures", harness);
    if (!existsSync(directory)) continue;
    for (const name of readdirSync(directory).sort()) {
      if (!name.endsWith(".common.json")) continue;
      const text = readFileSync(path.join(directory, name), "utf8");
      out.push({
        name: `${harness}/${name}`,
        transcript: commonCodec.toCommon(commonCodec.parse(text)),
      });
    }
  }
  return out;
}

/** The real Claude Code captures, read through this codec (none when ../shared is absent). */
export function realClaudeTranscripts(): NamedTranscript[] {
  const directory = path.join(realDirectory, "claude-code");
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => ({
      name: `real/${name}`,
      transcript: claudeCodeCodec.toCommon(
        claudeCodeCodec.parse(readFileSync(path.join(directory, name), "utf8")),
      ),
    }));
}

/** Reproducible generated transcripts with at least one exchange. */
export function generatedTranscripts(count: number, seed = 6): NamedTranscript[] {
  return fc
    .sample(
      transcriptArbitrary().filter((transcript) => transcript.messages.length >= 2),
      { numRuns: count, seed },
    )
    .map((transcript, index) => ({ name: `generated #${index + 1}`, transcript }));
}

/** Token totals of a transcript's assistant messages, its subagents' included (ccusage counts those too). */
export function totalUsage(transcript: Transcript): Usage {
  const total: Usage = {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
  };
  const add = (messages: readonly Message[], subagents: readonly Subagent[] | undefined) => {
    for (const message of messages) {
      if (message.role !== "assistant" || message.usage === undefined) continue;
      total.inputTokens += message.usage.inputTokens;
      total.outputTokens += message.usage.outputTokens;
      total.cacheReadInputTokens += message.usage.cacheReadInputTokens;
      total.cacheCreationInputTokens += message.usage.cacheCreationInputTokens;
    }
    for (const subagent of subagents ?? []) add(subagent.messages, subagent.subagents);
  };
  add(transcript.messages, transcript.subagents);
  return total;
}

/** The pinned-program table (scripts/real-programs.mjs, plain JS without types). */
const programs = (await import(
  new URL("../../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin: (name: string) => string | undefined;
  programSkipReason: (name: string) => string | undefined;
  realPrograms: Record<string, { version: string }>;
};

/** The Claude Code release the interop tests run: the pinned one in scripts/real-programs.mjs. */
export const claudeCodeVersion = programs.realPrograms.claude?.version ?? "unknown";

/**
 * The pinned `claude` binary the root test setup installed into its cache
 * (TXCRIPT_CLAUDE_BIN points at another build), or the reason it is not
 * there. Checks that it runs; installs nothing itself.
 */
export function ensureClaude(): { bin: string } | { skip: string } {
  const bin = programs.programBin("claude");
  if (bin === undefined)
    return { skip: programs.programSkipReason("claude") ?? "claude is not installed" };
  const probe = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (probe.status !== 0 || !probe.stdout.includes("Claude Code")) {
    const reason = probe.error?.message ?? probe.stderr ?? "no output";
    return { skip: `${bin} --version did not run: ${reason}` };
  }
  return { bin };
}

export interface ResumeOutcome {
  status: number | null;
  output: string;
}

/** `claude -p --resume <id> hi` offline, in `cwd`, against config `configDirectory`. */
export function resumeOffline(
  bin: string,
  configDirectory: string,
  cwd: string,
  sessionId: string,
): ResumeOutcome {
  const run = spawnSync(bin, ["-p", "--resume", sessionId, "hi"], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: configDirectory,
      CLAUDE_CONFIG_DIR: configDirectory,
      ANTHROPIC_API_KEY: "x",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
      CLAUDE_CODE_MAX_RETRIES: "0",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
  });
  return {
    status: run.status,
    output: `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}`,
  };
}

// The stub-backed resume is the shipped offline check's (claude-code-verify.ts).
export { type CapturedRequest, resumeCaptured } from "../claude-code-verify.js";
