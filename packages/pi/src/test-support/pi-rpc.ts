// Test support for the real-program checks: the transcripts to write (every
// fixture's Common document, the real captures, generated ones). The offline
// RPC run of pi (temporary agent dir and HOME, a models.json pointing at
// 127.0.0.1:9, proxies there too, a timeout) and what pi's documented context
// building makes of a session file (from its JSON lines alone, not from this
// package's reader) are the shipped check's, in pi-verify.ts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const realDirectory = path.resolve(repoRoot, "../shared/real");

export interface NamedTranscript {
  name: string;
  transcript: Transcript;
}

/** Every `fixtures/<harness>/<scenario>.common.json`, whichever harnesses have fixtures. */
export function fixtureTranscripts(): NamedTranscript[] {
  const out: NamedTranscript[] = [];
  const root = path.join(repoRoot, "fixtures");
  for (const harness of readdirSync(root).sort()) {
    const directory = path.join(root, harness);
    if (harness === "hostile" || !existsSync(directory)) continue;
    let names: string[];
    try {
      names = readdirSync(directory).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith(".common.json")) continue;
      const text = readFileSync(path.join(directory, name), "utf8");
      out.push({
        name: `${harness}/${name}`,
        transcript: commonCodec.toCommon(commonCodec.parse(text)),
      });
    }
  }
  return out;
}

/** Reproducible generated transcripts with at least one exchange. */
export function generatedTranscripts(count: number, seed = 15): NamedTranscript[] {
  return fc
    .sample(
      transcriptArbitrary().filter((transcript) => transcript.messages.length >= 2),
      { numRuns: count, seed },
    )
    .map((transcript, index) => ({ name: `generated #${index + 1}`, transcript }));
}

export {
  documentedContext,
  offlineAgentDir,
  type RpcCommand,
  type RpcRun,
  runRpc,
} from "../pi-verify.js";
