// Codex → Claude Code: real rollouts and the Codex fixtures, read by this
// codec and written by the Claude Code codec, are resumed by the pinned real
// `claude` offline (found and loaded, it fails on the connection; not found,
// it says "No conversation found"). Runs on a temporary CLAUDE_CONFIG_DIR.
import { spawnSync } from "node:child_process";
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Transcript } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codexCodec } from "./codex-codec.js";
import { realDirectory, repoRoot } from "./test-support/codex-programs.js";

const programs = (await import(
  new URL("../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
};

interface ClaudeSide {
  claudeCodeCodec: { fromCommon(transcript: Transcript): unknown };
  ClaudeCodeStore: new (options: {
    root: string;
  }) => {
    save(session: unknown, options: { overwrite: boolean; cwd: string }): Promise<{ id: string }>;
  };
}

/** Imported by a name the type checker does not follow (that package's source is its own). */
const claude = (await import(["@txcript", "claude-code"].join("/"))) as ClaudeSide;

function rollouts(): { name: string; transcript: Transcript }[] {
  const out: { name: string; transcript: Transcript }[] = [];
  for (const [directory, label] of [
    [path.join(realDirectory, "codex"), "real"],
    [path.join(repoRoot, "fixtures/codex"), "fixture"],
  ] as const) {
    if (!existsSync(directory)) {
      console.warn(`SKIPPED ${label} rollouts: ${directory} is absent`);
      continue;
    }
    for (const name of readdirSync(directory)
      .filter((entry) => entry.endsWith(".jsonl"))
      .sort())
      out.push({
        name: `${label}/${name}`,
        transcript: codexCodec.toCommon(
          codexCodec.parse(readFileSync(path.join(directory, name), "utf8")),
        ),
      });
  }
  return out;
}

const sessions = rollouts();
const reason = programs.programSkipReason("claude");
if (reason !== undefined)
  console.warn(`SKIPPED the Claude Code resume of converted rollouts: ${reason}`);

let temporary: string;
let work: string;
const written = new Map<string, string>();

function resume(id: string): { status: number | null; output: string } {
  const config = path.join(temporary, "claude");
  const run = spawnSync(programs.programBin("claude") as string, ["-p", "--resume", id, "hi"], {
    cwd: work,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: config,
      CLAUDE_CONFIG_DIR: config,
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

describe.skipIf(reason !== undefined)(
  `claude --resume opens Codex rollouts converted to Claude Code${reason ? ` (skipped: ${reason})` : ""}`,
  () => {
    beforeAll(async () => {
      temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-codex-to-claude-"));
      work = path.join(temporary, "work");
      await fs.mkdir(work, { recursive: true });
      const store = new claude.ClaudeCodeStore({
        root: path.join(temporary, "claude", "projects"),
      });
      for (const { name, transcript } of sessions) {
        const moved: Transcript = { ...transcript, meta: { ...transcript.meta, cwd: work } };
        const saved = await store.save(claude.claudeCodeCodec.fromCommon(moved), {
          overwrite: true,
          cwd: work,
        });
        written.set(name, saved.id);
      }
    }, 120_000);

    afterAll(async () => {
      await fs.rm(temporary, { recursive: true, force: true });
    });

    it("has the real rollouts and the fixtures", () => {
      expect(sessions.some((session) => session.name.startsWith("fixture/"))).toBe(true);
    });

    for (const { name } of sessions) {
      it(`loads ${name}`, () => {
        const id = written.get(name) as string;
        const outcome = resume(id);
        expect(outcome.output).not.toContain("No conversation found");
        expect(outcome.output).toMatch(/ECONNREFUSED|Connection refused|Unable to connect/);
        expect(outcome.status).not.toBe(0);
      });
    }

    it("control: a session that is not there is not found", () => {
      expect(resume("00000000-0000-4000-8000-000000000000").output).toContain(
        "No conversation found with session ID",
      );
    });
  },
);
