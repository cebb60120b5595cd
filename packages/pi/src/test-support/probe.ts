// The pi probe of the compatibility matrix (packages/integration): write a
// transcript with this package's writer and store into a fresh offline agent
// directory, then run the pinned program's offline check on a copy
// (pi-verify.ts, the one `txcript continue --verify` ships): `pi --mode rpc
// --session <id>` exits 0, reports our session id and the messages pi's own
// context building gives for our file, and leaves the file byte-identical.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { piCodec } from "../pi-codec.js";
import { PiStore } from "../pi-store.js";
import { piProgramCheck } from "../pi-verify.js";

const programs = (await import(
  new URL("../../../../scripts/real-programs.mjs", import.meta.url).href
)) as { programBin: (name: string) => string | undefined };

export interface ProbeResult {
  ok: boolean;
  detail: string;
}

export const probe = {
  programs: ["pi"],
  check:
    "`pi --mode rpc --session <id>` (offline) exits 0 with our session id and messages (get_state, get_messages), and leaves the file byte-identical",
  async run(transcript: Transcript, program: string): Promise<ProbeResult> {
    const bin = programs.programBin(program);
    if (bin === undefined) return { ok: false, detail: `${program} is not installed` };
    const base = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-probe-"));
    try {
      const agentDir = path.join(base, "written-agent");
      const cwd = path.join(base, "project");
      await fs.mkdir(cwd, { recursive: true });
      const store = new PiStore({ root: path.join(agentDir, "sessions") });
      const saved = await store.save(piCodec.fromCommon(transcript, { cwd }));
      return await piProgramCheck.run(saved, {
        bin,
        storeRoot: store.root,
        cwd,
        timeoutMs: 60_000,
      });
    } finally {
      await fs.rm(base, { recursive: true, force: true });
    }
  },
};
