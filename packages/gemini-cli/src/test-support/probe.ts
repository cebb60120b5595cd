// The Gemini CLI probe of the compatibility matrix (packages/integration):
// write a transcript with this package's writer and store into a fresh
// temporary GEMINI_CLI_HOME, then, as the interop test does, on copies:
// `gemini --list-sessions` must list it; `gemini -p continue --resume <id>
// -o json --skip-trust` must fail on the connection with our session id and
// leave an error report whose `context` is our whole history; and a start
// with retention on must keep the file. Never throws for a failed check.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Transcript } from "@txcript/core";
import { geminiCliCodec } from "../gemini-cli-codec.js";
import { GeminiCliStore } from "../gemini-cli-store.js";
import { historyEntries, transcriptEntries } from "./history.js";
import { errorReportContext, jsonReport, runGemini, writeSettings } from "./interop.js";

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
  programs: ["gemini"],
  check:
    "`gemini --list-sessions` lists it; `gemini -p continue --resume <id> -o json` fails on the connection with our id and sends our whole history; retention on keeps the file",
  async run(transcript: Transcript, program: string, _source?: string): Promise<ProbeResult> {
    const bin = programs.programBin(program);
    if (bin === undefined) return { ok: false, detail: `${program} is not installed` };
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-probe-"));
    try {
      const cwd = path.join(root, "work");
      await fs.mkdir(cwd, { recursive: true });
      const moved: Transcript = { ...transcript, meta: { ...transcript.meta, cwd } };
      const store = new GeminiCliStore({ root: path.join(root, "written", ".gemini") });
      let saved: { id: string; path: string };
      try {
        saved = await store.save(geminiCliCodec.fromCommon(moved, { forStore: true }));
      } catch (error) {
        return { ok: false, detail: `not saved: ${String(error).slice(0, 200)}` };
      }
      const copy = async (label: string, retention: boolean) => {
        const home = path.join(root, label);
        await fs.cp(path.join(root, "written"), home, { recursive: true });
        writeSettings(home, retention);
        return home;
      };
      const listed = runGemini(
        bin,
        await copy("list", false),
        cwd,
        ["--list-sessions"],
        path.join(root, "t1"),
      );
      if (!listed.stdout.includes(`[${saved.id}]`))
        return { ok: false, detail: `not listed: ${last(listed.output)}` };
      const tmpdir = path.join(root, "t2");
      const resumed = runGemini(
        bin,
        await copy("resume", false),
        cwd,
        ["-p", "continue", "--resume", saved.id, "-o", "json", "--skip-trust"],
        tmpdir,
      );
      const report = jsonReport(resumed);
      if (
        resumed.status !== 1 ||
        report?.session_id !== saved.id ||
        !/fetch failed/.test(report?.error?.message ?? "")
      )
        return { ok: false, detail: `resume: exit ${resumed.status}: ${last(resumed.output)}` };
      const sent = historyEntries(errorReportContext(tmpdir) ?? []);
      const expected = [...transcriptEntries(moved), "user text continue"];
      if (JSON.stringify(sent) !== JSON.stringify(expected)) {
        const at = expected.findIndex((entry, index) => sent[index] !== entry);
        return {
          ok: false,
          detail: `history differs at entry ${at}: sent ${JSON.stringify(sent[at])}`,
        };
      }
      const kept = await copy("retention", true);
      runGemini(bin, kept, cwd, ["--list-sessions"], path.join(root, "t3"));
      const file = path.join(kept, path.relative(path.join(root, "written"), saved.path));
      const survived = await fs.stat(file).then(
        () => true,
        () => false,
      );
      return survived
        ? {
            ok: true,
            detail: `listed, resumed with ${sent.length - 1} history entries, kept by retention`,
          }
        : { ok: false, detail: "deleted by Gemini CLI's cleanup with retention on" };
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
