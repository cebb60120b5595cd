// OpenCode sessions continue in Claude Code: the real OpenCode exports and
// the fixtures, converted through Common into Claude Code session files,
// are found and
// loaded by the pinned `claude -p --resume <id>` offline (it then fails on
// the dead API port, not with "No conversation found"). The control: an id
// that was not written gives "No conversation found".
import { spawnSync } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ClaudeCodeStore, claudeCodeCodec } from "@txcript/claude-code";
import type { Transcript } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programBin, programSkipReason } from "../../../scripts/real-programs.mjs";
import { opencodeCodec } from "./opencode-codec.js";
import { realTranscripts } from "./test-support/sessions.js";
import { fixtureNames, fixturesDir } from "./test-support.js";

const claude: string | undefined = programBin("claude");
const skip: string | undefined = programSkipReason("claude");
if (skip !== undefined) console.warn(`skipping OpenCode → Claude Code resume: ${skip}`);

const sessions: { name: string; transcript: Transcript }[] = [
  ...fixtureNames().map((name) => ({
    name: `fixtures/opencode/${name}`,
    transcript: opencodeCodec.toCommon(
      opencodeCodec.parse(readFileSync(path.join(fixturesDir, name), "utf8")),
    ),
  })),
  ...realTranscripts(),
];

function resume(
  config: string,
  cwd: string,
  id: string,
): { status: number | null; output: string } {
  const run = spawnSync(claude as string, ["-p", "--resume", id, "hi"], {
    cwd,
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

describe.skipIf(skip !== undefined)(
  `claude -p --resume loads OpenCode sessions written as Claude Code${skip ? ` (skipped: ${skip})` : ""}`,
  () => {
    let root: string;
    const written = new Map<string, string>();
    beforeAll(async () => {
      root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-opencode-claude-"));
      const work = path.join(root, "work");
      await fs.mkdir(work, { recursive: true });
      const store = new ClaudeCodeStore({ root: path.join(root, "config", "projects") });
      for (const { name, transcript } of sessions) {
        const moved = { ...transcript, meta: { ...transcript.meta, cwd: work } };
        const saved = await store.save(claudeCodeCodec.fromCommon(moved), { cwd: work });
        written.set(name, saved.id);
      }
    });
    afterAll(async () => {
      await fs.rm(root, { recursive: true, force: true });
    });

    for (const { name } of sessions)
      it(`loads ${name}`, () => {
        const outcome = resume(
          path.join(root, "config"),
          path.join(root, "work"),
          written.get(name) as string,
        );
        expect(outcome.output).not.toContain("No conversation found");
        expect(outcome.output).toMatch(/ECONNREFUSED|Connection refused|Unable to connect/);
        expect(outcome.status).not.toBe(0);
      }, 90_000);

    it("control: says so for a session that was not written", () => {
      const outcome = resume(
        path.join(root, "config"),
        path.join(root, "work"),
        "00000000-0000-4000-8000-000000000000",
      );
      expect(outcome.output).toContain("No conversation found with session ID");
    }, 90_000);
  },
);
