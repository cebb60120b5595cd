import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describeCodecLaws } from "@txcript/core/testing";
import { describe, expect, it } from "vitest";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { qwenCodeProject } from "./qwen-code-project.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixturesDirectory = path.join(repoRoot, "fixtures/qwen-code");

function recordings(directory: string, label: string) {
  let names: string[];
  try {
    names = (readdirSync(directory, { recursive: true }) as string[]).filter((name) =>
      name.endsWith(".jsonl"),
    );
  } catch {
    console.warn(`SKIPPED ${label} samples: ${directory} is absent`);
    return [];
  }
  return names.sort().map((name) => ({
    name: `${label} ${name}`,
    text: readFileSync(path.join(directory, name), "utf8"),
  }));
}

describeCodecLaws({
  codec: qwenCodeCodec,
  project: (transcript) => qwenCodeProject(transcript),
  samples: () => recordings(fixturesDirectory, "fixture"),
});

describe("record times", () => {
  const records = (times: unknown[]) =>
    times
      .map((timestamp, index) =>
        JSON.stringify({
          uuid: `u${index}`,
          parentUuid: index === 0 ? null : `u${index - 1}`,
          sessionId: "9e1f3d57-714e-488a-b6b5-f36d3f36878c",
          timestamp,
          type: index % 2 === 0 ? "user" : "assistant",
          message: { role: index % 2 === 0 ? "user" : "model", parts: [{ text: `t${index}` }] },
        }),
      )
      .join("\n");

  it("reads every time as a Common timestamp: a zone-less or second-precision one normalized, one that is no time replaced by the time before", () => {
    const transcript = qwenCodeCodec.toCommon(
      qwenCodeCodec.parse(
        records(["2026-01-02T03:04:05.006Z", "2026-01-02 03:04:07", "0x", "2026-01-02T03:04:09Z"]),
      ),
    );
    expect(transcript.messages.map((message) => message.timestamp)).toEqual([
      "2026-01-02T03:04:05.006Z",
      "2026-01-02T03:04:07.000Z",
      "2026-01-02T03:04:07.000Z",
      "2026-01-02T03:04:09.000Z",
    ]);
    // The fuzz case of CI's run of 06e9f9b: a duplicate key left the time "0", which V8 parses.
    const zero = qwenCodeCodec.toCommon(
      qwenCodeCodec.parse(records(["2026-01-02T03:04:05.006Z", "0"])),
    );
    for (const message of zero.messages)
      expect(message.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
