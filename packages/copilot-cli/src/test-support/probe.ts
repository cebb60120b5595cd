// The Copilot CLI probe of the compatibility matrix (packages/integration):
// write a transcript with this package's writer and store into a fresh
// temporary COPILOT_HOME, then resume it with the pinned `copilot` offline
// (BYOK, a chat completions stub on 127.0.0.1): it must exit 0, and its
// first model request must carry every prompt, tool call id (as tool_calls)
// and tool result (as tool messages) of the written log after its last
// compaction, and that compaction's summary. Never throws for a failed check.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { copilotCliCodec } from "../copilot-cli-codec.js";
import { CopilotCliStore } from "../copilot-cli-store.js";
import {
  copilotCacheHome,
  expectedInRequest,
  missingFromRequest,
  runCopilot,
  startChatStub,
} from "../copilot-cli-verify.js";

const programs = (await import(
  new URL("../../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin: (name: string) => string | undefined;
};

export interface ProbeResult {
  ok: boolean;
  detail: string;
}

function last(text: string): string {
  return text.trim().split("\n").slice(-2).join(" ").slice(0, 300);
}

export const probe = {
  programs: ["copilot"],
  check:
    "`copilot --resume=<id> -p continue` (offline, BYOK against a chat completions stub) exits 0 and its request carries every prompt, tool call id and tool result of the written log after its last compaction, and that compaction's summary",
  async run(transcript: Transcript, program: string, _source?: string): Promise<ProbeResult> {
    const bin = programs.programBin(program);
    if (bin === undefined) return { ok: false, detail: `${program} is not installed` };
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-copilot-probe-"));
    const stub = await startChatStub(6, 150_000);
    try {
      const cwd = path.join(root, "work");
      await fs.mkdir(cwd, { recursive: true });
      const moved: Transcript = { ...transcript, meta: { ...transcript.meta, cwd } };
      const store = new CopilotCliStore({ root: path.join(root, "copilot") });
      let saved: { id: string; path: string };
      try {
        saved = await store.save(copilotCliCodec.fromCommon(moved));
      } catch (error) {
        return { ok: false, detail: `not saved: ${String(error).slice(0, 200)}` };
      }
      const text = await fs.readFile(saved.path, "utf8");
      const run = await runCopilot(
        bin,
        {
          copilotHome: store.root,
          home: path.join(root, "home"),
          cacheHome: copilotCacheHome(),
          cwd,
          baseUrl: stub.baseUrl,
        },
        [`--resume=${saved.id}`, "-p", "continue", "--allow-all-tools"],
        120_000,
      );
      if (run.status !== 0) return { ok: false, detail: `exit ${run.status}: ${last(run.output)}` };
      const request = stub.requests[0];
      if (request === undefined) return { ok: false, detail: "no model request was made" };
      const missing = missingFromRequest(expectedInRequest(text), request);
      if (missing !== undefined) return { ok: false, detail: missing };
      const messages = Array.isArray(request.messages) ? request.messages : [];
      return { ok: true, detail: `sent ${messages.length} messages` };
    } finally {
      await stub.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
