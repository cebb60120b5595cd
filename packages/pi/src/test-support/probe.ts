// The pi probe of the compatibility matrix (packages/integration): write a
// transcript with this package's writer and store into a fresh offline agent
// directory, then run the pinned `pi --mode rpc --session <id>` with
// get_state and get_messages, as pi-rpc.test.ts does: pi opened our session
// when it exits 0, reports our session id and the messages its own
// context-building gives for our file, and leaves the file byte-identical.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { piCodec } from "../pi-codec.js";
import { PiStore } from "../pi-store.js";
import { documentedContext, offlineAgentDir, runRpc } from "./pi-rpc.js";

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
      const { agentDir, home } = await offlineAgentDir(base);
      const cwd = path.join(base, "project");
      await fs.mkdir(cwd, { recursive: true });
      const store = new PiStore({ root: path.join(agentDir, "sessions") });
      const saved = await store.save(piCodec.fromCommon(transcript, { cwd }));
      const before = await fs.readFile(saved.path);
      const run = await runRpc(bin, {
        sessionArg: saved.id,
        cwd,
        agentDir,
        home,
        commands: [{ type: "get_state" }, { type: "get_messages" }],
      });
      const state = run.responses.get("get_state")?.data as { sessionId?: string } | undefined;
      const messages = (
        run.responses.get("get_messages")?.data as { messages?: unknown[] } | undefined
      )?.messages;
      const same = (await fs.readFile(saved.path)).equals(before);
      const expected = documentedContext(before.toString("utf8"));
      const problems = [
        run.status === 0 ? undefined : `exit ${run.status}: ${run.stderr.trim().slice(-200)}`,
        state?.sessionId === saved.id ? undefined : `get_state names ${state?.sessionId}`,
        JSON.stringify(messages) === JSON.stringify(expected) ? undefined : "get_messages differs",
        same ? undefined : "pi rewrote the file",
      ].filter((problem): problem is string => problem !== undefined);
      return { ok: problems.length === 0, detail: problems.join("; ") || "opened" };
    } finally {
      await fs.rm(base, { recursive: true, force: true });
    }
  },
};
