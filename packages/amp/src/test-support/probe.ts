// The compatibility probe for the matrix (`pnpm interop` → docs/compatibility.md):
// write a transcript as a thread with ampCodec.fromCommon and AmpStore into a
// fresh scratch home, then run the same offline checks as
// src/amp-interop.test.ts (helpers shared in amp-programs.ts). The programs
// are this package's pinned dev dependencies, not entries of
// scripts/real-programs.mjs: "amp" (@sourcegraph/amp@0.0.1768018268-gcd18ba)
// and "ccusage-amp" (@ccusage/amp@18.0.11). Never throws for a failed check.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import type { Transcript } from "@txcript/core";
import { ampCodec } from "../amp-codec.js";
import { AmpStore } from "../amp-store.js";
import {
  ampBin,
  ampOffline,
  assistantUsages,
  ccusageBin,
  ccusageSessions,
  markdownProblem,
  run,
  scratchEnvironment,
  usageTotals,
} from "./amp-programs.js";

export interface ProbeResult {
  ok: boolean;
  detail: string;
}

export interface Probe {
  /** Real program(s) checked. */
  programs: string[];
  /** One line: the check. */
  check: string;
  /** Versions of programs that are not in scripts/real-programs.mjs. */
  versions?: Record<string, string>;
  /** Write `transcript` into a fresh temp home and run the program's offline check on it. */
  run(transcript: Transcript, program: string): Promise<ProbeResult>;
}

async function check(
  transcript: Transcript,
  program: string,
  scratch: string,
): Promise<ProbeResult> {
  mkdirSync(path.join(scratch, "home"), { recursive: true });
  const store = new AmpStore({ root: path.join(scratch, "data", "amp", "threads") });
  const { id } = await store.save(ampCodec.fromCommon(transcript), { overwrite: true });
  if (program === "amp") {
    if (ampBin === undefined)
      return { ok: false, detail: "@sourcegraph/amp is not installed (run pnpm install)" };
    const result = await run(ampBin, ["threads", "markdown", id], ampOffline(scratch));
    const problem = markdownProblem(result, id, transcript);
    return problem === undefined
      ? { ok: true, detail: "`amp threads markdown` renders the thread with every text" }
      : { ok: false, detail: problem };
  }
  if (program === "ccusage-amp") {
    if (ccusageBin === undefined)
      return { ok: false, detail: "@ccusage/amp is not installed (run pnpm install)" };
    const result = await run(
      ccusageBin,
      ["session", "--json"],
      scratchEnvironment(scratch, {
        AMP_DATA_DIR: path.join(scratch, "data", "amp"),
        LOG_LEVEL: "0",
      }),
    );
    if (result.code !== 0) return { ok: false, detail: `exit ${result.code}` };
    const usages = assistantUsages(transcript);
    const session = ccusageSessions(result).get(id);
    if (usages.length === 0)
      return session === undefined
        ? { ok: true, detail: "no usage, no session counted" }
        : { ok: false, detail: "counted a session for a thread without usage" };
    const expected = usageTotals(usages);
    return JSON.stringify(session) === JSON.stringify(expected)
      ? { ok: true, detail: "token totals equal the transcript's usage" }
      : {
          ok: false,
          detail: `counted ${JSON.stringify(session)}, expected ${JSON.stringify(expected)}`,
        };
  }
  return { ok: false, detail: `unknown program ${JSON.stringify(program)}` };
}

export const probe: Probe = {
  programs: ["amp", "ccusage-amp"],
  /** Not in scripts/real-programs.mjs: this package's pinned dev dependencies. */
  versions: {
    amp: "@sourcegraph/amp@0.0.1768018268-gcd18ba",
    "ccusage-amp": "@ccusage/amp@18.0.11",
  },
  check:
    "amp threads markdown <id> (CLI 0.0.1768018268, offline) renders the thread with every text; ccusage-amp session --json counts its tokens",
  async run(transcript, program) {
    const scratch = mkdtempSync(path.join(tmpdir(), "amp-probe-"));
    try {
      return await check(transcript, program, scratch);
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
