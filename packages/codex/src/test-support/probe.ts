// The Codex probe of the compatibility matrix (packages/integration): write
// a transcript with this package's writer and store into a fresh CODEX_HOME,
// then run the pinned `codex exec --skip-git-repo-check resume <id> hi` on a
// copy against a loopback Responses stub (as codex-interop.test.ts does):
// the session was opened when Codex prints `session id: <id>` and the turn's
// request, carrying the thread id, reaches the stub.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { codexCodec } from "../codex-codec.js";
import { codexHarness } from "../codex-harness.js";
import { CodexStore } from "../codex-store.js";
import { execResume, startStub } from "./codex-programs.js";

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
    const stub = await startStub(20, 120_000);
    try {
      const work = path.join(root, "work");
      await fs.mkdir(work, { recursive: true });
      const store = new CodexStore({ root: path.join(root, "written") });
      const moved = { ...transcript, meta: { ...transcript.meta, cwd: work } };
      const options = codexHarness.writeOptions?.({ from: source }) ?? {};
      const saved = await store.save(codexCodec.fromCommon(moved, options), { overwrite: true });
      const home = path.join(root, "copy");
      await fs.cp(path.join(root, "written"), home, { recursive: true, preserveTimestamps: true });
      const outcome = await execResume(bin, home, work, saved.id, stub.url);
      const opened = outcome.output.includes(`session id: ${saved.id}`);
      const sent = stub.requests.some(
        (entry) => entry.method === "POST" && entry.body?.prompt_cache_key === saved.id,
      );
      return {
        ok: opened && sent,
        detail:
          opened && sent
            ? "opened and sent"
            : `${opened ? "opened, but no request reached the stub" : "not opened"}: ${outcome.output.trim().split("\n").slice(-2).join(" ").slice(0, 300)}`,
      };
    } finally {
      await stub.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
