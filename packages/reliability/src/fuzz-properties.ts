// The fuzz properties, addressable by name (`<parser>/<property>`) so a
// saved failing seed replays the very same property. Each property feeds
// hostile text to one parser and lets the oracle judge it.
import fc from "fast-check";
import { applyMutations, type Mutation, mutationArbitrary } from "./mutations.js";
import { checkText, OracleViolation } from "./oracle.js";
import {
  type ParserId,
  type ParserUnderTest,
  parserById,
  parsers,
  type Sample,
  samplesFor,
} from "./parsers.js";

export const propertyNames = [
  "arbitrary-string",
  "arbitrary-json",
  "vocabulary-json",
  "mutated-sample",
  "prototype-keys-round-trip",
] as const;
export type PropertyName = (typeof propertyNames)[number];

const hostileKeys = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "",
  "type",
);

const jsonText = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.json(),
  fc
    .dictionary(fc.oneof(hostileKeys, fc.string()), fc.jsonValue({ maxDepth: 2 }))
    .map((value) => JSON.stringify(value)),
);

/** Keys and string values seen in a parser's samples: generated objects speak its vocabulary. */
function vocabulary(samples: readonly Sample[]): { keys: string[]; strings: string[] } {
  const keys = new Set<string>();
  const strings = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        keys.add(key);
        walk(item);
      }
    } else if (typeof value === "string" && value.length <= 40) strings.add(value);
  };
  for (const sample of samples) {
    for (const unit of sample.text.split("\n")) {
      try {
        walk(JSON.parse(unit));
      } catch {
        // a pretty-printed document is parsed whole below
      }
    }
    try {
      walk(JSON.parse(sample.text));
    } catch {
      // JSONL: parsed line by line above
    }
  }
  return { keys: [...keys].sort(), strings: [...strings].sort() };
}

function vocabularyJson(parser: ParserUnderTest, samples: readonly Sample[]): fc.Arbitrary<string> {
  const { keys, strings } = vocabulary(samples);
  if (keys.length === 0) return jsonText;
  const leaf = fc.oneof(
    fc.constantFrom(...(strings.length > 0 ? strings : [""])),
    fc.constantFrom<unknown>(null, true, false, 0, 1, -1, 2 ** 53 + 2, "", []),
    fc.string({ maxLength: 8 }),
    fc.integer(),
  );
  const { value } = fc.letrec<{ value: unknown; object: object }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      tie("object"),
      fc.array(tie("value"), { maxLength: 3 }),
    ),
    object: fc.dictionary(fc.oneof(fc.constantFrom(...keys), hostileKeys), tie("value"), {
      maxKeys: 6,
    }),
  }));
  const document = value.map((item) => JSON.stringify(item) ?? "null");
  return parser.layout === "jsonl"
    ? fc.array(document, { minLength: 1, maxLength: 6 }).map((lines) => `${lines.join("\n")}\n`)
    : document;
}

/** The text a property case stands for (also used to print a saved failure). */
export interface PropertyCase {
  text: string;
  description: string;
}

function caseArbitrary(
  parser: ParserUnderTest,
  name: PropertyName,
  samples: readonly Sample[],
): fc.Arbitrary<PropertyCase> {
  switch (name) {
    case "arbitrary-string":
      return fc
        .oneof(
          fc.string({ unit: "binary" }),
          fc.string({ unit: "grapheme" }),
          fc.string({ unit: fc.constantFrom(...'{}[]":,\n\r\\ tfnu0123456789.eE+-\uFEFF') }),
        )
        .map((text) => ({ text, description: "an arbitrary string" }));
    case "arbitrary-json":
      return fc
        .oneof(
          jsonText,
          fc.array(jsonText, { minLength: 1, maxLength: 5 }).map((lines) => lines.join("\n")),
        )
        .map((text) => ({ text, description: "arbitrary JSON" }));
    case "vocabulary-json":
      return vocabularyJson(parser, samples).map((text) => ({
        text,
        description: "JSON built from the keys and strings of the samples",
      }));
    case "mutated-sample":
    case "prototype-keys-round-trip": {
      if (samples.length === 0) return fc.constant({ text: "", description: "no samples" });
      const mutations: fc.Arbitrary<Mutation[]> = fc.array(mutationArbitrary(), {
        minLength: 1,
        maxLength: 3,
      });
      return fc.tuple(fc.constantFrom(...samples), mutations).map(([sample, applied]) => ({
        text: applyMutations(sample.text, parser.layout, applied),
        description: `${sample.name} with ${JSON.stringify(applied, (_key, value) => (typeof value === "string" && value.length > 80 ? `${value.slice(0, 80)}…` : value))}`,
      }));
    }
  }
}

const prototypeMutation = fc.record({
  kind: fc.constant("prototype-key" as const),
  pick: fc.nat(),
  key: fc.constantFrom("__proto__" as const, "constructor" as const, "prototype" as const),
  value: fc.constantFrom<unknown>({ polluted: "yes" }, "polluted", null, [1]),
});

/**
 * The property `<parser>/<name>` among `targets` (the registry's unless told:
 * a test passes its own list with a toy harness); undefined when there is no
 * such parser, or no sample it reads byte-exactly for the round trip.
 */
export function fuzzProperty(
  parserId: ParserId,
  name: PropertyName,
  targets: readonly ParserUnderTest[] = parsers,
): fc.IProperty<[PropertyCase]> | undefined {
  const parser = parserById(parserId, targets);
  if (!parser) return undefined;
  const samples = samplesFor(parser, targets);
  if (name === "prototype-keys-round-trip") {
    // Samples the parser reads byte-exactly: a prototype-named key added to any
    // object must come back out of serialize(parse(text)) as data.
    const exact = samples.filter((sample) => {
      try {
        return parser.codec.serialize(parser.codec.parse(sample.text)) === sample.text;
      } catch {
        return false;
      }
    });
    if (exact.length === 0) return undefined;
    const arbitrary = fc
      .tuple(fc.constantFrom(...exact), prototypeMutation)
      .map(([sample, mutation]) => ({
        text: applyMutations(sample.text, parser.layout, [mutation]),
        description: `${sample.name} with ${JSON.stringify(mutation)}`,
      }));
    return fc.property(arbitrary, ({ text }) => {
      const outcome = checkText(parser, text, { targets });
      if (outcome.kind === "rejected" && outcome.stage === "parse") return;
      const again = parser.codec.serialize(parser.codec.parse(text));
      if (again !== text) {
        throw new OracleViolation(
          `${parserId}: serialize(parse(text)) changed a text with a prototype-named key (${again.length} vs ${text.length} characters)`,
        );
      }
    });
  }
  return fc.property(caseArbitrary(parser, name, samples), ({ text }) => {
    checkText(parser, text, { targets });
  });
}
