// The registry's own promises: every harness is listed once, names never
// collide, and detection (first sniff that matches, in order) tells every
// harness's own files apart — the fixtures each package ships and files
// each writer makes from generated transcripts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultRegistry, harnessDefinitions, harnessDirectory } from "./index.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../fixtures");

/** fixtures/<dir> for a harness id (harnessDirectory: claude_code → claude-code). */
function fixtureFiles(id: string): string[] {
  const directory = path.join(fixtures, harnessDirectory(id));
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter(
      (name) =>
        !name.endsWith(".common.json") && !name.endsWith(".md") && /\.(json|jsonl)$/.test(name),
    )
    .map((name) => path.join(directory, name));
}

describe("the harness registry", () => {
  it("names each harness's directory with '-' for '_'", () => {
    expect(harnessDirectory("claude_code")).toBe("claude-code");
    expect(harnessDirectory("stream_json")).toBe("stream-json");
    expect(harnessDirectory("amp")).toBe("amp");
  });

  it("lists every harness package once", () => {
    expect(harnessDefinitions.map((harness) => harness.id)).toEqual([
      "common",
      "cursor_cli",
      "amp",
      "opencode",
      "copilot_cli",
      "crush",
      "qwen_code",
      "claude_code",
      "codex",
      "pi",
      "gemini_cli",
      "kimi_cli",
      "stream_json",
    ]);
  });

  for (const harness of harnessDefinitions) {
    const files = fixtureFiles(harness.id);
    it(`detects ${harness.id}'s own fixtures as ${harness.id} (${files.length} files)`, () => {
      if (harness.id !== "common")
        expect(files.length, `fixtures/${harnessDirectory(harness.id)}`).toBeGreaterThan(0);
      for (const file of files)
        expect(
          defaultRegistry.detect(readFileSync(file, "utf8")).id,
          path.relative(fixtures, file),
        ).toBe(harness.id);
    });
    it(`detects what ${harness.id}'s writer makes as ${harness.id}`, () => {
      const options = harness.writeOptions?.({}) ?? {};
      for (const transcript of fc.sample(transcriptArbitrary(), { numRuns: 60, seed: 11 })) {
        if (transcript.messages.length === 0) continue;
        const text = harness.codec.serialize(harness.codec.fromCommon(transcript, options));
        expect(defaultRegistry.detect(text).id).toBe(harness.id);
      }
    });
  }
});
