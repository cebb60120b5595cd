// False positives on sessions written by the real programs and on the
// project's Common fixtures: redaction finds nothing in them but the one
// credential that is there (an OAuth client secret assigned in Go source an
// OpenCode session read, `oauthClientSecret = "…"`). A look-alike a rule
// takes for a secret (a test runner's `PASS: …`, once) fails here.
// ../shared/real is read in place; without it, that part is skipped.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Transcript } from "@txcript/core";
import { defaultRegistry } from "@txcript/harnesses";
import { describe, expect, it } from "vitest";
import { redactTranscript } from "./redact-transcript.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const real = path.resolve(repoRoot, "../shared/real");

function* files(dir: string, pattern: RegExp): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* files(file, pattern);
    else if (pattern.test(name)) yield file;
  }
}

/** Every finding as `file: kind`, for the sessions that read. */
async function findings(sessions: Iterable<[string, Transcript]>): Promise<string[]> {
  const found: string[] = [];
  for (const [name, transcript] of sessions) {
    const { report } = await redactTranscript(transcript);
    for (const [kind, { count }] of Object.entries(report.kinds))
      found.push(`${name}: ${kind} ×${count}`);
  }
  return found;
}

describe("no false positive in real and fixture sessions", () => {
  it("the Common fixtures", async () => {
    const sessions: [string, Transcript][] = [];
    for (const file of files(path.join(repoRoot, "fixtures"), /\.common\.json$/)) {
      const document = commonCodec.parse(readFileSync(file, "utf8"), { file });
      sessions.push([path.relative(repoRoot, file), commonCodec.toCommon(document)]);
    }
    expect(sessions.length).toBeGreaterThanOrEqual(20);
    expect(await findings(sessions)).toEqual([]);
  });

  it.runIf(existsSync(real))(
    `the real programs' sessions${existsSync(real) ? "" : " (skipped: ../shared/real is absent)"}`,
    async () => {
      const sessions: [string, Transcript][] = [];
      for (const file of files(real, /\.jsonl?$/)) {
        const text = readFileSync(file, "utf8");
        try {
          const harness = defaultRegistry.detect(text, file);
          const native = harness.codec.parse(text, { file });
          sessions.push([path.relative(real, file), harness.codec.toCommon(native as never)]);
        } catch {
          // Not a whole session (a fragment or a log): not this test's business.
        }
      }
      expect(sessions.length).toBeGreaterThanOrEqual(15);
      expect(await findings(sessions)).toEqual([
        "opencode/export-1.15.6-windows-mcp-Cap.json: secret-value ×1",
      ]);
    },
  );
});
