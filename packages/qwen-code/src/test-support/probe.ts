// The Qwen Code probe of the compatibility matrix (packages/integration):
// write a transcript with this package's writer and store into a fresh
// temporary runtime directory, then run the shipped offline check
// (qwen-code-verify.ts) on it: `qwen --resume=<id>` against a model stub on
// 127.0.0.1 must send the model every prompt, tool call and tool result.
// Never throws for a failed check.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { qwenCodeCodec } from "../qwen-code-codec.js";
import { QwenCodeStore } from "../qwen-code-store.js";
import { qwenCodeProgramCheck } from "../qwen-code-verify.js";

const programs = (await import(
  new URL("../../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin: (name: string) => string | undefined;
};

export interface ProbeResult {
  ok: boolean;
  detail: string;
}

export const probe = {
  programs: ["qwen"],
  check: qwenCodeProgramCheck.description,
  async run(transcript: Transcript, program: string, _source?: string): Promise<ProbeResult> {
    const bin = programs.programBin(program);
    if (bin === undefined) return { ok: false, detail: `${program} is not installed` };
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-qwen-probe-"));
    try {
      const cwd = path.join(root, "work");
      await fs.mkdir(cwd, { recursive: true });
      const moved: Transcript = { ...transcript, meta: { ...transcript.meta, cwd } };
      const store = new QwenCodeStore({ root: path.join(root, "written", ".qwen") });
      let saved: { id: string; path: string };
      try {
        saved = await store.save(qwenCodeCodec.fromCommon(moved, { forStore: true }));
      } catch (error) {
        return { ok: false, detail: `not saved: ${String(error).slice(0, 200)}` };
      }
      return await qwenCodeProgramCheck.run(saved, {
        bin,
        storeRoot: store.root,
        cwd,
        timeoutMs: 90_000,
      });
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
