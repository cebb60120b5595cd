// The Claude Code probe of the compatibility matrix (packages/integration):
// write a transcript with this package's writer and store into a fresh
// temporary config directory, then run the pinned program's offline check on
// a copy (claude-code-verify.ts, the one `txcript continue --verify` ships):
// `claude -p --resume <id> hi` against a 127.0.0.1 stub loads the session and
// sends its history, and does not print "No conversation found".
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { claudeCodeCodec } from "../claude-code-codec.js";
import { ClaudeCodeStore } from "../claude-code-store.js";
import { claudeCodeProgramCheck } from "../claude-code-verify.js";

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
    "`claude -p --resume <id> hi` (API at a 127.0.0.1 stub) loads the session and sends its history, not `No conversation found`",
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
      return await claudeCodeProgramCheck.run(saved, {
        bin,
        storeRoot: store.root,
        cwd,
        timeoutMs: 60_000,
      });
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
