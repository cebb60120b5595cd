// Sessions pi could have written, and ones no pi wrote: entries of every
// type with every field either its documented kind or any JSON value.
// Parsing stays byte-exact, and toCommon returns a transcript Common's own
// schema accepts (never throws, never a wrong type through).
import { validateTranscript } from "@txcript/core";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";

const anything = fc.jsonValue({ maxDepth: 2 });
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(arbitrary, anything);
const id = fc.constantFrom("aa000001", "aa000002", "aa000003", "aa000004", "");
const time = fc.oneof(
  fc.integer({ min: -1e15, max: 1e15 }),
  fc.constantFrom("2026-01-01T00:00:00.000Z", "2026-01-01 10:00", "nope"),
);

const textBlock = fc.record({ type: fc.constant("text"), text: maybe(fc.string()) });
const block = fc.oneof(
  textBlock,
  fc.record({
    type: fc.constant("image"),
    data: maybe(fc.string()),
    mimeType: maybe(fc.constantFrom("image/png", "")),
  }),
  fc.record({
    type: fc.constant("thinking"),
    thinking: maybe(fc.string()),
    thinkingSignature: maybe(fc.string()),
    redacted: maybe(fc.boolean()),
  }),
  fc.record({
    type: fc.constant("toolCall"),
    id: maybe(fc.string()),
    name: maybe(fc.constantFrom("read", "edit", "bash", "x")),
    arguments: anything,
  }),
  anything,
);
const usage = fc.record({
  input: maybe(fc.nat()),
  output: maybe(fc.nat()),
  cacheRead: maybe(fc.integer()),
  cacheWrite: maybe(fc.double()),
  totalTokens: maybe(fc.nat()),
  cost: maybe(fc.record({ total: maybe(fc.double()), input: maybe(fc.double()) })),
});
const message = fc.record(
  {
    role: maybe(
      fc.constantFrom(
        "user",
        "assistant",
        "toolResult",
        "bashExecution",
        "custom",
        "hookMessage",
        "branchSummary",
        "compactionSummary",
        "system",
      ),
    ),
    content: maybe(fc.oneof(fc.string(), fc.array(block, { maxLength: 4 }))),
    timestamp: maybe(time),
    provider: maybe(fc.constantFrom("anthropic", "")),
    model: maybe(fc.string()),
    usage: maybe(usage),
    stopReason: maybe(fc.constantFrom("stop", "toolUse", "length", "")),
    toolCallId: maybe(fc.string()),
    isError: anything,
    command: maybe(fc.string()),
    output: maybe(fc.string()),
    exitCode: anything,
    summary: maybe(fc.string()),
    tokensBefore: maybe(fc.nat()),
    customType: maybe(fc.string()),
    details: anything,
  },
  { requiredKeys: ["role"] },
);
const entry = fc.record(
  {
    type: maybe(
      fc.constantFrom(
        "message",
        "model_change",
        "thinking_level_change",
        "compaction",
        "branch_summary",
        "custom",
        "custom_message",
        "label",
        "session_info",
        "usage",
      ),
    ),
    id: maybe(id),
    parentId: maybe(fc.oneof(id, fc.constant(null))),
    timestamp: maybe(time),
    message: maybe(message),
    summary: maybe(fc.string()),
    tokensBefore: maybe(fc.integer()),
    firstKeptEntryId: maybe(id),
    fromHook: anything,
    modelId: maybe(fc.string()),
    customType: maybe(fc.constantFrom("txcript.lineage", "ext", "")),
    data: anything,
    content: maybe(fc.oneof(fc.string(), fc.array(block, { maxLength: 3 }))),
    name: maybe(fc.string()),
  },
  { requiredKeys: ["type"] },
);
const header = fc.record(
  {
    type: fc.constantFrom("session", "other"),
    version: maybe(fc.constantFrom(1, 2, 3)),
    id: maybe(fc.string()),
    timestamp: maybe(time),
    cwd: maybe(fc.string()),
    modelId: maybe(fc.string()),
  },
  { requiredKeys: ["type"] },
);
const session = fc
  .tuple(header, fc.array(entry, { maxLength: 12 }), fc.boolean())
  .map(
    ([first, rest, newline]) =>
      [first, ...rest].map((value) => JSON.stringify(value)).join("\n") + (newline ? "\n" : ""),
  );

describe("odd pi entries", () => {
  it("parse is byte-exact and toCommon gives a valid Common transcript", () => {
    fc.assert(
      fc.property(session, (text) => {
        const parsed = piCodec.parse(text);
        expect(piCodec.serialize(parsed)).toBe(text);
        const transcript = piCodec.toCommon(parsed);
        expect(() => validateTranscript(transcript)).not.toThrow();
      }),
      lawParameters(),
    );
  });
});
