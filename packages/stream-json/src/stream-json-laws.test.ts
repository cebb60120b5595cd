import { readFileSync } from "node:fs";
import path from "node:path";
import { describeCodecLaws } from "@txcript/core/testing";
import { fixturesDirectory as fixtures, realDirectory as real } from "./fixtures-support.js";
import { streamJsonCodec, streamJsonProject } from "./index.js";

// One fixed start time: lines fromCommon writes carry their own timestamps,
// so it matters only to the totality laws.
const startTime = new Date("2026-05-01T12:00:00.000Z");

function samples(files: string[]) {
  return () =>
    files.flatMap((file) => {
      try {
        return [{ name: path.basename(file), text: readFileSync(file, "utf8") }];
      } catch {
        console.warn(`skipping the byte-exactness sample ${file}: not present`);
        return [];
      }
    });
}

describeCodecLaws({
  codec: streamJsonCodec,
  project: streamJsonProject("claude"),
  label: "stream-json (Claude Code dialect)",
  readOptions: { startTime },
  writeOptions: { dialect: "claude" },
  samples: samples([
    path.join(fixtures, "claude-tools.jsonl"),
    path.join(fixtures, "claude-replay-partial.jsonl"),
    path.join(fixtures, "claude-multi-run.jsonl"),
  ]),
});

describeCodecLaws({
  codec: streamJsonCodec,
  project: streamJsonProject("amp"),
  label: "stream-json (Amp dialect)",
  readOptions: { startTime },
  writeOptions: { dialect: "amp" },
  samples: samples([
    path.join(fixtures, "amp-multi-run.jsonl"),
    path.join(real, "amp-stream-same-run.jsonl"),
  ]),
});
