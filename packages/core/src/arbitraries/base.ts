// The building blocks of the Common generators: hostile text, any JSON,
// every typed tool (from its zod schema) and Raw tools, usage, stop reasons,
// images, thinking, tool ids and results, timestamps, and the blocks of
// prompts and answers.
import fc from "fast-check";
import type { Json } from "../json.js";
import { type Block, canonicalStopReasons, type Usage } from "../model.js";
import { fromCanonical, type Tool, toolInputSchemas, typedToolNames } from "../tools.js";
import { arbitraryFromSchema } from "./schema-arbitrary.js";

/** Text with astral Unicode, empty strings and edge whitespace. Always well-formed UTF-16. */
export const textArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 2, arbitrary: fc.lorem({ maxCount: 8 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "\n",
      "\t",
      "  padded  ",
      "line one\nline two\n",
      "\r\n",
      "😀 astral 𝒳 text",
      "<command-name>/x</command-name>",
      "\u0000nul",
      '"quoted" \\ back',
    ),
  },
);

export const nonEmptyText = textArbitrary.filter((text) => text.length > 0);

/** Round-trip through text: drops -0 and rebuilds objects exactly as a parser would (`__proto__` as data). */
function normalizeJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

const hostileKey = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "",
);

/** Any JSON value, with prototype-named keys in objects. No -0 (JSON cannot carry it). */
export const jsonArbitrary: fc.Arbitrary<Json> = fc
  .letrec<{ value: Json }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .map((value) => (Object.is(value, -0) ? 0 : value)),
      textArbitrary,
      fc.array(tie("value"), { maxLength: 4 }),
      fc
        .array(fc.tuple(fc.oneof(fc.string({ maxLength: 8 }), hostileKey), tie("value")), {
          maxLength: 4,
        })
        .map((entries) => {
          // JSON.parse semantics: `__proto__` becomes an own data property.
          const object = JSON.parse("{}") as Record<string, Json>;
          for (const [key, item] of entries)
            Object.defineProperty(object, key, {
              value: item,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          return object;
        }),
    ),
  }))
  .value.map(normalizeJson);

export const jsonObjectArbitrary: fc.Arbitrary<{ [key: string]: Json }> = fc
  .dictionary(fc.oneof(fc.string({ maxLength: 10 }), hostileKey), jsonArbitrary, { maxKeys: 4 })
  .map((value) => normalizeJson(value) as { [key: string]: Json });

/** Every typed tool, inputs derived from the tool schemas. */
export const typedToolArbitrary: fc.Arbitrary<Tool> = fc.oneof(
  ...typedToolNames.map((name) =>
    arbitraryFromSchema(toolInputSchemas[name], { string: textArbitrary }).map((input) =>
      fromCanonical(name, input as Json),
    ),
  ),
);

const toolNameArbitrary = fc.oneof(
  fc.constantFrom(
    "mcp__github__create_issue",
    "apply_patch",
    "finder",
    "oracle",
    "painter",
    "web_search",
    "skill",
    "NotebookEdit",
    "ExitPlanMode",
    "undo_edit",
  ),
  fc.constantFrom(...typedToolNames),
  fc.string({ minLength: 1, maxLength: 20 }),
);

/** Raw tools: any name (canonical names included) with any JSON input that the typed schema does not fit. */
export const rawToolArbitrary: fc.Arbitrary<Tool> = fc
  .tuple(toolNameArbitrary, fc.oneof(jsonObjectArbitrary, jsonArbitrary))
  .map(([name, input]) => fromCanonical(name, input));

export const toolArbitrary: fc.Arbitrary<Tool> = fc.oneof(
  { weight: 3, arbitrary: typedToolArbitrary },
  { weight: 2, arbitrary: rawToolArbitrary },
);

export const usageArbitrary: fc.Arbitrary<Usage> = fc.record(
  {
    inputTokens: fc.nat({ max: 2_000_000 }),
    outputTokens: fc.nat({ max: 200_000 }),
    cacheReadInputTokens: fc.nat({ max: 2_000_000 }),
    cacheCreationInputTokens: fc.nat({ max: 2_000_000 }),
    reasoningOutputTokens: fc.nat({ max: 100_000 }),
    costUsd: fc.oneof(
      fc.integer({ min: 0, max: 100_000 }).map((cents) => cents / 10_000),
      fc.constant(0),
    ),
  },
  {
    requiredKeys: [
      "inputTokens",
      "outputTokens",
      "cacheReadInputTokens",
      "cacheCreationInputTokens",
    ],
  },
);

export const stopReasonArbitrary: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...canonicalStopReasons) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("model_context_window_exceeded", "content_filter", "custom reason"),
  },
);

const base64Arbitrary = fc
  .uint8Array({ maxLength: 48 })
  .map((bytes) => Buffer.from(bytes).toString("base64"));

export const imageBlockArbitrary: fc.Arbitrary<Block> = fc.record({
  type: fc.constant("image" as const),
  source: fc.record({
    type: fc.constant("base64" as const),
    mediaType: fc.constantFrom("image/png", "image/jpeg", "image/gif", "image/webp"),
    data: base64Arbitrary,
  }),
});

export const thinkingBlockArbitrary: fc.Arbitrary<Block> = fc.record(
  {
    type: fc.constant("thinking" as const),
    text: textArbitrary,
    signature: fc.base64String({ minLength: 4, maxLength: 40 }),
    encrypted: fc.base64String({ minLength: 4, maxLength: 40 }),
    provider: fc.constantFrom("anthropic", "openai"),
  },
  { requiredKeys: ["type", "text"] },
);

export const toolUseIdArbitrary = fc.oneof(
  fc.stringMatching(/^toolu_[0-9A-Za-z]{8,24}$/),
  fc.stringMatching(/^TU-[0-9A-Za-z]{8,20}$/),
  fc.stringMatching(/^call_[0-9A-Za-z]{8,20}$/),
  fc.string({ minLength: 1, maxLength: 12 }),
);

export const toolResultContentArbitrary: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: textArbitrary },
  { weight: 1, arbitrary: jsonArbitrary },
);

/** Timestamps between 2020 and 2035 with millisecond precision. */
export const timestampArbitrary: fc.Arbitrary<string> = fc
  .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) })
  .map((ms) => new Date(ms).toISOString());

export const promptBlocks = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: textArbitrary.map((text): Block => ({ type: "text", text })) },
    { weight: 1, arbitrary: imageBlockArbitrary },
  ),
  {
    minLength: 1,
    maxLength: 3,
  },
);

export const assistantBlocks = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: textArbitrary.map((text): Block => ({ type: "text", text })) },
    { weight: 2, arbitrary: thinkingBlockArbitrary },
    { weight: 1, arbitrary: imageBlockArbitrary },
  ),
  { maxLength: 3 },
);
