// Gemini sessions continue in Claude Code: the real Gemini recordings and the
// fixtures, read by this codec and written by @txcript/claude-code's store,
// are found and loaded by the pinned `claude` offline (it fails on the
// connection; a session it cannot find says "No conversation found"). The
// Claude Code package is imported by a name TypeScript does not follow: its
// source may be mid-change, and then this file skips, visibly.
import { spawnSync } from "node:child_process";
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Transcript } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programBin, programSkipReason } from "../../../scripts/real-programs.mjs";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { realDirectory, repoRoot } from "./test-support/interop.js";

interface ClaudeSide {
  codec: { fromCommon(transcript: Transcript): unknown };
  Store: new (options: {
    root: string;
  }) => {
    save(session: unknown, options: { overwrite?: boolean; cwd?: string }): Promise<{ id: string }>;
  };
}

async function claudeSide(): Promise<ClaudeSide | string> {
  try {
    const module = (await import(["@txcript", "claude-code"].join("/"))) as Record<string, unknown>;
    return {
      codec: module.claudeCodeCodec as ClaudeSide["codec"],
      Store: module.ClaudeCodeStore as ClaudeSide["Store"],
    };
  } catch (error) {
    return `@txcript/claude-code does not load: ${String(error).slice(0, 160)}`;
  }
}

function geminiRecordings(): { name: string; transcript: Transcript }[] {
  const out: { name: string; transcript: Transcript }[] = [];
  const sources: [string, string][] = [
    [path.join(realDirectory, "gemini"), "real/gemini"],
    [path.join(repoRoot, "fixtures/gemini-cli"), "fixture"],
  ];
  for (const [directory, label] of sources) {
    let names: string[] = [];
    try {
      names = readdirSync(directory).filter(
        (name) => /\.jsonl?$/.test(name) && !name.endsWith(".common.json"),
      );
    } catch {
      console.warn(`SKIPPED ${label}: ${directory} is absent`);
    }
    for (const name of names.sort())
      out.push({
        name: `${label}/${name}`,
        transcript: geminiCliCodec.toCommon(
          geminiCliCodec.parse(readFileSync(path.join(directory, name), "utf8")),
        ),
      });
  }
  return out;
}

const side = await claudeSide();
const bin = programBin("claude") as string | undefined;
const skip =
  typeof side === "string"
    ? side
    : bin === undefined
      ? (programSkipReason("claude") as string)
      : undefined;
if (skip !== undefined) console.warn(`SKIPPED Gemini → Claude Code resume: ${skip}`);
const recordings = geminiRecordings();

let temporary: string;
let cwd: string;
const ids = new Map<string, string>();

function resume(id: string): { status: number | null; output: string } {
  const run = spawnSync(bin as string, ["-p", "--resume", id, "hi"], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: path.join(temporary, "claude"),
      CLAUDE_CONFIG_DIR: path.join(temporary, "claude"),
      ANTHROPIC_API_KEY: "txcript-fake-key",
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

beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-claude-"));
  cwd = path.join(temporary, "project");
  await fs.mkdir(cwd, { recursive: true });
  if (typeof side === "string") return;
  const store = new side.Store({ root: path.join(temporary, "claude", "projects") });
  for (const { name, transcript } of recordings) {
    const moved: Transcript = { ...transcript, meta: { ...transcript.meta, cwd } };
    const saved = await store.save(side.codec.fromCommon(moved), { overwrite: true, cwd });
    ids.set(name, saved.id);
  }
}, 120_000);

afterAll(async () => {
  await fs.rm(temporary, { recursive: true, force: true });
});

describe.skipIf(skip !== undefined)(
  "claude -p --resume <id> loads Gemini sessions written as Claude Code sessions",
  () => {
    it.skipIf(!existsSync(realDirectory))("has the real recordings of both eras", () => {
      expect([...ids.keys()].filter((name) => name.startsWith("real/gemini/"))).toHaveLength(2);
    });
    for (const { name } of recordings) {
      it(`loads ${name}`, () => {
        const id = ids.get(name) as string;
        const outcome = resume(id);
        expect(outcome.output).not.toContain("No conversation found");
        expect(outcome.output).toMatch(/ECONNREFUSED|Connection refused|Unable to connect/);
        expect(outcome.status).not.toBe(0);
      });
    }
    it("says so when the session is not there (the control)", () => {
      expect(resume("00000000-0000-4000-8000-000000000000").output).toContain(
        "No conversation found with session ID",
      );
    });
  },
);
