// Sessions pi could have written, and ones no pi wrote, for the laws (the
// odd-entries test and the streaming reader's): entries of every type with
// every field either its documented kind or any JSON value, ids from a small
// pool so they collide, branch and loop.
import fc from "fast-check";

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
/** One entry of any type, each field its documented kind or any JSON value. */
export const oddEntryArbitrary = fc.record(
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
    firstKeptEntryIndex: maybe(fc.nat({ max: 12 })),
    fromHook: anything,
    modelId: maybe(fc.string()),
    customType: maybe(fc.constantFrom("txcript.lineage", "ext", "")),
    data: anything,
    content: maybe(fc.oneof(fc.string(), fc.array(block, { maxLength: 3 }))),
    name: maybe(fc.string()),
  },
  { requiredKeys: ["type"] },
);
/** A first line: a session header of version 1 to 3, or not one. */
export const oddHeaderArbitrary = fc.record(
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
/** A session file: a header-like first line, entries, and maybe a final newline. */
export const oddSessionArbitrary = fc
  .tuple(oddHeaderArbitrary, fc.array(oddEntryArbitrary, { maxLength: 12 }), fc.boolean())
  .map(
    ([first, rest, newline]) =>
      [first, ...rest].map((value) => JSON.stringify(value)).join("\n") + (newline ? "\n" : ""),
  );
