// The matrix probe agrees with the interop test: a real recording passes, and
// a transcript Gemini CLI would delete (a /command only) fails, with a reason.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { geminiBin, realDirectory } from "./test-support/interop.js";
import { probe } from "./test-support/probe.js";

const found = geminiBin();
const skip = "skip" in found ? found.skip : undefined;
if (skip !== undefined) console.warn(`SKIPPED the Gemini CLI probe: ${skip}`);

describe.skipIf(skip !== undefined)("the Gemini CLI probe", () => {
  it("passes the real JSONL recording", async (context) => {
    let text: string;
    try {
      text = readFileSync(
        path.join(realDirectory, "gemini", "jsonl-2026-04-23-VibeCodingTracker.jsonl"),
        "utf8",
      );
    } catch {
      context.skip("../shared is absent");
      return;
    }
    const result = await probe.run(geminiCliCodec.toCommon(geminiCliCodec.parse(text)), "gemini");
    expect(result.detail).toMatch(/^listed, resumed/);
    expect(result.ok).toBe(true);
  });
  it("fails a transcript with nothing Gemini CLI can resume (the control)", async () => {
    const result = await probe.run(
      {
        meta: { id: "probe-control", timestamp: "2026-01-01T00:00:00.000Z" },
        // No message at all (the writer no longer writes a /command Gemini CLI would skip).
        messages: [],
      },
      "gemini",
    );
    expect(result.ok).toBe(false);
    expect(result.detail).toContain("not saved");
  });
});
