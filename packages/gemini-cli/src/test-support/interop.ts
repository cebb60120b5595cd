// Test support for the real-program checks (not shipped): the sessions they
// write (every fixture's Common document, the real captures, generated
// transcripts), the pinned Gemini CLI from scripts/real-programs.mjs, and
// one offline run of it: a temporary GEMINI_CLI_HOME with retries off and
// API-key auth, a fake key, proxies at 127.0.0.1:9 (nothing listens), its
// own TMPDIR for the error report, and a timeout. Nothing here fakes a result.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { programBin, programSkipReason, realPrograms } from "../../../../scripts/real-programs.mjs";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const realDirectory = path.resolve(repoRoot, "../shared/real");
export const geminiVersion: string =
  (realPrograms as Record<string, { version: string }>).gemini?.version ?? "?";

export interface NamedTranscript {
  name: string;
  transcript: Transcript;
}

/** The pinned `gemini` bin, or the reason its checks skip. */
export function geminiBin(): { bin: string } | { skip: string } {
  const bin = programBin("gemini") as string | undefined;
  return bin === undefined ? { skip: programSkipReason("gemini") as string } : { bin };
}

/** Every `<scenario>.common.json` of these fixture directories (a directory mid-change is skipped, visibly). */
export function fixtureTranscripts(harnesses: readonly string[]): NamedTranscript[] {
  const out: NamedTranscript[] = [];
  for (const harness of harnesses) {
    const directory = path.join(repoRoot, "fixtures", harness);
    if (!existsSync(directory)) {
      console.warn(`SKIPPED fixtures/${harness}: absent`);
      continue;
    }
    for (const name of readdirSync(directory).sort()) {
      if (!name.endsWith(".common.json")) continue;
      try {
        const text = readFileSync(path.join(directory, name), "utf8");
        out.push({
          name: `${harness}/${name}`,
          transcript: commonCodec.toCommon(commonCodec.parse(text)),
        });
      } catch (error) {
        console.warn(`SKIPPED fixtures/${harness}/${name}: ${String(error).slice(0, 160)}`);
      }
    }
  }
  return out;
}

/** Reproducible generated transcripts with at least one exchange. */
export function generatedTranscripts(count: number, seed = 17): NamedTranscript[] {
  return fc
    .sample(
      transcriptArbitrary().filter((transcript) => transcript.messages.length >= 2),
      { numRuns: count, seed },
    )
    .map((transcript, index) => ({ name: `generated #${index + 1}`, transcript }));
}

// The offline run of `gemini` (settings, environment, timeout) and its JSON
// report are the shipped check's (gemini-cli-verify.ts): one implementation.
export { type GeminiRun, jsonReport, runGemini, writeSettings } from "../gemini-cli-verify.js";

/** The request history (`context`) of the sendMessageStream error report Gemini wrote into `tmpdir`. */
export function errorReportContext(tmpdir: string): unknown[] | undefined {
  const name = readdirSync(tmpdir).find((entry) =>
    entry.startsWith("gemini-client-error-Turn.run-sendMessageStream-"),
  );
  if (name === undefined) return undefined;
  const report = JSON.parse(readFileSync(path.join(tmpdir, name), "utf8")) as {
    context?: unknown[];
  };
  return report.context;
}
