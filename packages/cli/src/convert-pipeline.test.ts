// The lean convert path: slices that add up to exactly what the codecs
// serialize (line by line or whole), and the input text taken once parsed.
// The sliced atomic write itself is core's writeFileAtomic (files.test.ts).
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { convert, WarningCollector } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { convertSource } from "./convert-pipeline.js";
import { detectHarness, findHarness, harnessList, loadRegistry } from "./harnesses.js";

// The whole registry: the CLI loads it on demand (harnesses.ts).
await loadRegistry();

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixtures = ["amp", "claude-code", "stream-json"].flatMap((directory) =>
  readdirSync(path.join(repoRoot, "fixtures", directory))
    .filter((name) => /\.jsonl?$/.test(name) && !name.endsWith(".common.json"))
    .map((name) => path.join(repoRoot, "fixtures", directory, name)),
);
const startTime = new Date("2026-01-01T00:00:00.000Z");

function source(file: string) {
  const text = readFileSync(file, "utf8");
  return { text, harness: detectHarness(text, file), file, startTime };
}

/** What core's convert() prints and reports for the same input: the reference. */
function reference(file: string, to: ReturnType<typeof findHarness>) {
  const { text, harness } = source(file);
  const write = to.writeOptions?.({ from: harness.id, sourceText: text });
  const read = harness.readOptions?.({ startTime });
  return convert(text, harness.codec, to.codec, {
    file,
    ...(read === undefined ? {} : { read }),
    ...(write === undefined ? {} : { write }),
  });
}

// Some writers record the time of writing (Gemini CLI's lastUpdated): one
// fixed clock, so two writes of the same session can be compared.
beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-06-01T12:00:00.000Z"));
});
afterAll(() => {
  vi.useRealTimers();
});

describe("convertSource", () => {
  it("prints what convert() prints, whole or line by line, for every fixture and target", async () => {
    expect(fixtures.length).toBeGreaterThan(5);
    for (const file of fixtures)
      for (const to of harnessList()) {
        const expected = reference(file, to);
        for (const lineByLine of [false, true]) {
          const converted = await convertSource(source(file), to, { lineByLine });
          expect([...converted.slices].join(""), `${file} → ${to.id}`).toBe(expected.text);
          // The pipeline tags each loss with its leg; convert() reports the same losses untagged.
          const untagged = new WarningCollector();
          for (const {
            leg: _leg,
            harness: _harness,
            cases: _cases,
            ...warning
          } of converted.warnings())
            untagged.add(warning);
          const plain = new WarningCollector();
          for (const { cases: _cases, ...warning } of expected.warnings) plain.add(warning);
          expect(untagged.warnings.map(({ cases: _c, ...w }) => w)).toEqual(
            plain.warnings.map(({ cases: _c, ...w }) => w),
          );
          expect(
            converted
              .warnings()
              .every((warning) => warning.leg === "read" || warning.leg === "write"),
          ).toBe(true);
        }
      }
  });

  it("takes the input text: it is cleared once parsed", async () => {
    const input = source(path.join(repoRoot, "fixtures/amp/export-thread.json"));
    await convertSource(input, findHarness("claude_code"), { lineByLine: true });
    expect(input.text).toBe("");
  });

  it("names the file on a read error", async () => {
    const input = { ...source(fixtures[0] as string), text: "{" };
    await expect(convertSource(input, findHarness("claude_code"))).rejects.toThrow(
      expect.objectContaining({ location: expect.objectContaining({ file: fixtures[0] }) }),
    );
  });
});

describe("serializeChunks", () => {
  it("adds up to serialize(fromCommon()) for every harness that streams, long captures included", () => {
    const streaming = harnessList().filter((harness) => harness.serializeChunks !== undefined);
    expect(streaming.map((harness) => harness.id)).toEqual(
      expect.arrayContaining(["claude_code", "stream_json"]),
    );
    const long = {
      meta: { id: "long", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: Array.from({ length: 2500 }, (_, index) => ({
        role: index % 2 ? ("assistant" as const) : ("user" as const),
        content: [{ type: "text" as const, text: `message ${index}` }],
        timestamp: "2026-01-01T00:00:00.000Z",
      })),
    };
    for (const harness of streaming) {
      const options = harness.writeOptions?.({}) ?? {};
      const whole = harness.codec.serialize(harness.codec.fromCommon(long, options));
      const chunks = [...(harness.serializeChunks?.(long, options) ?? [])];
      expect(chunks.length, harness.id).toBeGreaterThan(2);
      expect(chunks.join(""), harness.id).toBe(whole);
    }
  });
});
