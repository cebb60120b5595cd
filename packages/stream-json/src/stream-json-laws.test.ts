import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describeCodecLaws } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { fixturesDirectory as fixtures, realDirectory as real } from "./fixtures-support.js";
import { streamJsonCodec, streamJsonProject } from "./index.js";

// One fixed start time: lines fromCommon writes carry their own timestamps,
// so it matters only to the totality laws.
const startTime = new Date("2026-05-01T12:00:00.000Z");

/** The in-repo captures of one dialect, by their name's prefix: a missing file fails, never shrinks the law. */
function fixtureSamples(prefix: string) {
  return readdirSync(fixtures)
    .filter((name) => name.startsWith(prefix) && name.endsWith(".jsonl"))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(fixtures, name), "utf8") }));
}

const realCapture = path.join(real, "amp-stream-same-run.jsonl");
const realPresent = existsSync(realCapture);
if (!realPresent) console.warn(`law 1 runs without the real Amp capture: ${realCapture} is absent`);

describe("stream-json: law 1's samples", () => {
  it("are exactly the expected in-repo captures", () => {
    expect(fixtureSamples("claude-").map((sample) => sample.name)).toEqual([
      "claude-multi-run.jsonl",
      "claude-replay-partial.jsonl",
      "claude-tools.jsonl",
    ]);
    expect(fixtureSamples("amp-").map((sample) => sample.name)).toEqual(["amp-multi-run.jsonl"]);
  });
  it.skipIf(!realPresent)(
    `include the real Amp capture${realPresent ? "" : " (skipped: ../shared/real is absent)"}`,
    () => {
      expect(readFileSync(realCapture, "utf8").length).toBeGreaterThan(0);
    },
  );
});

describeCodecLaws({
  codec: streamJsonCodec,
  project: streamJsonProject("claude"),
  label: "stream-json (Claude Code dialect)",
  readOptions: { startTime },
  writeOptions: { dialect: "claude" },
  samples: () => fixtureSamples("claude-"),
});

describeCodecLaws({
  codec: streamJsonCodec,
  project: streamJsonProject("amp"),
  label: "stream-json (Amp dialect)",
  readOptions: { startTime },
  writeOptions: { dialect: "amp" },
  samples: () => [
    ...fixtureSamples("amp-"),
    ...(realPresent
      ? [{ name: "amp-stream-same-run.jsonl (real)", text: readFileSync(realCapture, "utf8") }]
      : []),
  ],
});

describeCodecLaws({
  codec: streamJsonCodec,
  project: streamJsonProject("amp"),
  label: "stream-json (Amp dialect, modern tool era)",
  readOptions: { startTime },
  writeOptions: { dialect: "amp", toolEra: "modern" },
  oddShapes: false,
  numRuns: 100,
});
