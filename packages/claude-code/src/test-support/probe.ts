// The Claude Code probe of the compatibility matrix (packages/integration):
// write a transcript with this package's writer and store into a fresh
// temporary config directory, then run the pinned `claude -p --resume <id> hi`
// offline on a copy of it, as the resume interop test does: the session was
// found and loaded when Claude Code fails on the connection, and not when it
// prints "No conversation found".
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { claudeCodeCodec } from "../claude-code-codec.js";
import { ClaudeCodeStore } from "../claude-code-store.js";
import { resumeOffline } from "./interop.js";

const programs = (await import(
  new URL("../../../../scripts/real-programs.mjs", import.meta.url).href
)) as { programBin: (name: string) => string | undefined };

export interface ProbeResult {
  ok: boolean;
  detail: string;
}

export const probe = {
  programs: ["claude"],
  check:
    "`claude -p --resume <id> hi` (offline, API at 127.0.0.1:9) fails on the connection, not with `No conversation found`",
  async run(transcript: Transcript, program: string): Promise<ProbeResult> {
    const bin = programs.programBin(program);
    if (bin === undefined) return { ok: false, detail: `${program} is not installed` };
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-claude-probe-"));
    try {
      const cwd = path.join(root, "work");
      await fs.mkdir(cwd, { recursive: true });
      const store = new ClaudeCodeStore({ root: path.join(root, "written", "projects") });
      const moved = { ...transcript, meta: { ...transcript.meta, cwd } };
      const saved = await store.save(claudeCodeCodec.fromCommon(moved), { overwrite: true, cwd });
      await fs.cp(path.join(root, "written"), path.join(root, "copy"), { recursive: true });
      const outcome = resumeOffline(bin, path.join(root, "copy"), cwd, saved.id);
      const loaded =
        !outcome.output.includes("No conversation found") &&
        /ECONNREFUSED|Connection refused|Unable to connect/.test(outcome.output) &&
        outcome.status !== 0;
      return {
        ok: loaded,
        detail: loaded
          ? "loaded"
          : outcome.output.trim().split("\n").slice(-2).join(" ").slice(0, 300),
      };
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
