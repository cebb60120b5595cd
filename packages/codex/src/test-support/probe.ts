// The Codex probe of the compatibility matrix (packages/integration): write
// a transcript with this package's writer and store into a fresh CODEX_HOME,
// then run the pinned program's offline check on a copy (codex-verify.ts,
// the one `txcript continue --verify` ships): `codex exec resume <id> hi`
// against a loopback Responses stub opens the session and sends its turn.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { codexCodec } from "../codex-codec.js";
import { codexHarness } from "../codex-harness.js";
import { CodexStore } from "../codex-store.js";
import { codexProgramCheck } from "../codex-verify.js";

const programs = (await import(
  new URL("../../../../scripts/real-programs.mjs", import.meta.url).href
)) as { programBin: (name: string) => string | undefined };

export interface ProbeResult {
  ok: boolean;
  detail: string;
}

export const probe = {
  programs: ["codex", "codex-legacy"],
  check:
    "`codex exec --skip-git-repo-check resume <id> hi` (API at a 127.0.0.1 stub) prints `session id: <id>` and sends the turn",
  async run(transcript: Transcript, program: string, source = "foreign"): Promise<ProbeResult> {
    const bin = programs.programBin(program);
    if (bin === undefined) return { ok: false, detail: `${program} is not installed` };
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-codex-probe-"));
    try {
      const work = path.join(root, "work");
      await fs.mkdir(work, { recursive: true });
      const store = new CodexStore({ root: path.join(root, "written") });
      const moved = { ...transcript, meta: { ...transcript.meta, cwd: work } };
      const options = codexHarness.writeOptions?.({ from: source }) ?? {};
      const saved = await store.save(codexCodec.fromCommon(moved, options), { overwrite: true });
      return await codexProgramCheck.run(saved, {
        bin,
        storeRoot: store.root,
        cwd: work,
        timeoutMs: 120_000,
      });
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
