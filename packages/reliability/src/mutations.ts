// The mutation engine: hostile variants of a native text, as a user's disk
// or an attacker would hand them over. Structural mutations edit one JSON
// unit (the document, or one line of a JSONL file) and re-serialize only
// that unit; byte mutations work on the UTF-8 bytes. Pure functions plus
// fast-check arbitraries; it checks nothing (see oracle.ts).
import fc from "fast-check";
import type { Layout } from "./parsers.js";

export const mutationKinds = [
  "drop-key",
  "change-type",
  "truncate",
  "duplicate-key",
  "invalid-utf8",
  "lone-surrogate",
  "bom",
  "crlf",
  "huge-string",
  "deep-nesting",
  "big-number",
  "prototype-key",
] as const;
export type MutationKind = (typeof mutationKinds)[number];

export const prototypeKeys = ["__proto__", "constructor", "prototype"] as const;

export type Mutation =
  | { kind: "drop-key"; pick: number }
  | { kind: "change-type"; pick: number; value: unknown }
  | { kind: "truncate"; at: number }
  | { kind: "duplicate-key"; pick: number; value: unknown }
  | { kind: "invalid-utf8"; at: number; bytes: readonly number[] }
  | { kind: "lone-surrogate"; at: number; unit: number }
  | { kind: "bom" }
  | { kind: "crlf" }
  | { kind: "huge-string"; pick: number; bytes: number }
  | { kind: "deep-nesting"; pick: number; depth: number; open: "[" | '{"a":' }
  | { kind: "big-number"; pick: number; literal: string }
  | {
      kind: "prototype-key";
      pick: number;
      key: (typeof prototypeKeys)[number];
      value: unknown;
    };

/** 10 MiB: the "huge string" of the issue. */
export const hugeStringBytes = 10 * 1024 * 1024;
/** 100,000 levels: the "deep nesting" of the issue. */
export const deepNestingDepth = 100_000;

/** Numbers JSON can spell but a double cannot hold exactly (or at all). */
export const bigNumberLiterals = [
  "9007199254740993",
  "-9007199254740993",
  "18446744073709551616",
  "123456789012345678901234567890",
  "1e400",
  "-1e400",
  "5e-400",
  "0.30000000000000000000000000001",
  "-0",
] as const;

// A string no real input contains, replaced after JSON.stringify by raw text
// that JSON.stringify cannot produce (duplicate keys, literal numbers, depth).
const marker = "\u{10FFFD}txcript-mutation-marker\u{10FFFD}";
const markerJson = JSON.stringify(marker);

type Segment = string | number;

/** Every node of a JSON value as a path, root first (iterative: inputs may be very deep). */
function nodePaths(value: unknown): Segment[][] {
  const into: Segment[][] = [];
  const pending: { node: unknown; at: Segment[] }[] = [{ node: value, at: [] }];
  while (pending.length > 0) {
    const { node, at } = pending.pop() as { node: unknown; at: Segment[] };
    into.push(at);
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index -= 1)
        pending.push({ node: node[index], at: [...at, index] });
    } else if (typeof node === "object" && node !== null) {
      const keys = Object.keys(node);
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index] as string;
        pending.push({ node: (node as Record<string, unknown>)[key], at: [...at, key] });
      }
    }
  }
  return into;
}

function getAt(value: unknown, at: readonly Segment[]): unknown {
  let current = value;
  for (const segment of at) current = (current as Record<Segment, unknown>)[segment];
  return current;
}

/** Own data properties only: `__proto__` is set as a key, never as the prototype. */
function defineOwn(object: object, key: Segment, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function setAt(root: unknown, at: readonly Segment[], value: unknown): unknown {
  if (at.length === 0) return value;
  const parent = getAt(root, at.slice(0, -1)) as object;
  defineOwn(parent, at[at.length - 1] as Segment, value);
  return root;
}

/** A copy of an object with `key: value` added last (after any existing keys). */
function withKeyLast(object: Record<string, unknown>, key: string, value: unknown): object {
  const copy = {};
  for (const existing of Object.keys(object))
    if (existing !== key) defineOwn(copy, existing, object[existing]);
  defineOwn(copy, key, value);
  return copy;
}

interface Unit {
  /** The unit's text as it stands in the input. */
  text: string;
  /** Its JSON value, or undefined when the unit is not JSON (already cut, say). */
  value?: unknown;
  /** The indent to re-serialize with, to keep a pretty-printed document pretty. */
  indent: number;
}

function splitUnits(text: string, layout: Layout): Unit[] {
  const pieces = layout === "jsonl" ? text.split("\n") : [text];
  return pieces.map((piece) => {
    const indent = /\n( +)"/.exec(piece)?.[1]?.length ?? 0;
    try {
      return { text: piece, value: JSON.parse(piece), indent };
    } catch {
      return { text: piece, indent };
    }
  });
}

function joinUnits(units: Unit[], layout: Layout, original: string): string {
  if (layout === "jsonl") return units.map((unit) => unit.text).join("\n");
  const unit = units[0] as Unit;
  // Keep a single document's trailing newline when re-serialized.
  return unit.text.endsWith("\n") || !original.endsWith("\n") ? unit.text : `${unit.text}\n`;
}

function stringify(value: unknown, indent: number): string {
  return JSON.stringify(value, null, indent || undefined);
}

/** Apply a structural edit to the JSON unit and node that `pick` selects. */
function structural(
  text: string,
  layout: Layout,
  pick: number,
  edit: (
    root: unknown,
    at: Segment[],
    node: unknown,
  ) => { root: unknown; raw?: string } | undefined,
): string {
  const units = splitUnits(text, layout);
  const parsed = units.filter((unit) => unit.value !== undefined);
  if (parsed.length === 0) return text;
  const unit = parsed[pick % parsed.length] as Unit;
  try {
    editUnit(unit, pick, parsed.length, edit);
  } catch (error) {
    // A unit an earlier mutation nested 100,000 deep cannot be cloned or
    // re-serialized: leave it as it is.
    if (error instanceof RangeError) return text;
    throw error;
  }
  return joinUnits(units, layout, text);
}

function editUnit(
  unit: Unit,
  pick: number,
  unitCount: number,
  edit: (
    root: unknown,
    at: Segment[],
    node: unknown,
  ) => { root: unknown; raw?: string } | undefined,
): void {
  const root = structuredClone(unit.value);
  const paths = nodePaths(root);
  const at = paths[Math.floor(pick / unitCount) % paths.length] as Segment[];
  const result = edit(root, at, getAt(root, at));
  if (result === undefined) return;
  let serialized = stringify(result.root, unit.indent);
  if (result.raw !== undefined)
    serialized = serialized.replace(markerJson, () => result.raw as string);
  unit.text = serialized;
}

function firstObjectAt(root: unknown, at: Segment[]): Segment[] | undefined {
  for (let length = at.length; length >= 0; length -= 1) {
    const candidate = at.slice(0, length);
    const node = getAt(root, candidate);
    if (typeof node === "object" && node !== null && !Array.isArray(node)) return candidate;
  }
  return undefined;
}

let hugeCache: { bytes: number; text: string } | undefined;
function hugeString(bytes: number): string {
  if (hugeCache?.bytes !== bytes) {
    // Varied, escapable content so no parser can shortcut a run of one character.
    const chunk = 'huge "string" \\ with ünïcödé and 😀 — ';
    hugeCache = { bytes, text: chunk.repeat(Math.ceil(bytes / Buffer.byteLength(chunk))) };
  }
  return hugeCache.text;
}

/** One mutation applied to a text of the given layout. */
export function applyMutation(text: string, layout: Layout, mutation: Mutation): string {
  switch (mutation.kind) {
    case "drop-key":
      return structural(text, layout, mutation.pick, (root, at) => {
        const objectAt = firstObjectAt(root, at);
        if (objectAt === undefined) return undefined;
        const object = getAt(root, objectAt) as Record<string, unknown>;
        const keys = Object.keys(object);
        if (keys.length === 0) return undefined;
        delete object[keys[mutation.pick % keys.length] as string];
        return { root };
      });
    case "change-type":
      return structural(text, layout, mutation.pick, (root, at) => ({
        root: setAt(root, at, mutation.value),
      }));
    case "duplicate-key":
      // The key is written twice: the copy (with a new value) last, so JSON.parse keeps the copy.
      return structural(text, layout, mutation.pick, (root, at) => {
        const objectAt = firstObjectAt(root, at);
        if (objectAt === undefined) return undefined;
        const object = getAt(root, objectAt) as Record<string, unknown>;
        const keys = Object.keys(object);
        if (keys.length === 0) return undefined;
        const key = keys[mutation.pick % keys.length] as string;
        // The marker stands in for the second spelling of the key.
        const copy = withKeyLast(object, marker, mutation.value);
        return { root: setAt(root, objectAt, copy), raw: JSON.stringify(key) };
      });
    case "prototype-key":
      return structural(text, layout, mutation.pick, (root, at) => {
        const objectAt = firstObjectAt(root, at);
        if (objectAt === undefined) return undefined;
        const object = getAt(root, objectAt) as Record<string, unknown>;
        return { root: setAt(root, objectAt, withKeyLast(object, mutation.key, mutation.value)) };
      });
    case "huge-string":
      return structural(text, layout, mutation.pick, (root, at) => ({
        root: setAt(root, at, hugeString(mutation.bytes)),
      }));
    case "deep-nesting":
      return structural(text, layout, mutation.pick, (root, at) => ({
        root: setAt(root, at, marker),
        raw: `${mutation.open.repeat(mutation.depth)}1${(mutation.open === "[" ? "]" : "}").repeat(mutation.depth)}`,
      }));
    case "big-number":
      return structural(text, layout, mutation.pick, (root, at) => ({
        root: setAt(root, at, marker),
        raw: mutation.literal,
      }));
    case "truncate": {
      const bytes = Buffer.from(text, "utf8");
      return bytes.subarray(0, mutation.at % (bytes.length + 1)).toString("utf8");
    }
    case "invalid-utf8": {
      // What a reader decoding the file as UTF-8 would hand the parser.
      const bytes = Buffer.from(text, "utf8");
      const at = mutation.at % (bytes.length + 1);
      return Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from(mutation.bytes),
        bytes.subarray(at),
      ]).toString("utf8");
    }
    case "lone-surrogate": {
      const at = mutation.at % (text.length + 1);
      return text.slice(0, at) + String.fromCharCode(mutation.unit) + text.slice(at);
    }
    case "bom":
      return `\uFEFF${text}`;
    case "crlf":
      return text.replace(/\r?\n/g, "\r\n");
  }
}

export function applyMutations(
  text: string,
  layout: Layout,
  mutations: readonly Mutation[],
): string {
  return mutations.reduce((current, mutation) => applyMutation(current, layout, mutation), text);
}

const pick = fc.nat();
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, "", "x", [], {}, [null], { a: 1 }),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string(),
);

/** Invalid UTF-8: stray continuation bytes, overlongs, cut sequences, surrogates, past U+10FFFF. */
const invalidUtf8 = fc.constantFrom<readonly number[]>(
  [0x80],
  [0xbf],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xfe],
  [0xff],
  [0xe2, 0x82],
  [0x00],
);

/**
 * A mutation. The heavy ones (10 MiB, 100,000 deep) have weight 1 against
 * about 400 (some 1% of cases) so 100,000 cases stay within the hour;
 * hostile-values.test.ts applies them deterministically as well.
 */
export function mutationArbitrary(options: { heavy?: boolean } = {}): fc.Arbitrary<Mutation> {
  const heavy = options.heavy ?? true;
  const heavyMutations: fc.WeightedArbitrary<Mutation>[] = [
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("huge-string" as const),
        pick,
        bytes: fc.constant(hugeStringBytes),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("deep-nesting" as const),
        pick,
        depth: fc.constant(deepNestingDepth),
        open: fc.constantFrom("[" as const, '{"a":' as const),
      }),
    },
  ];
  const weighted: fc.WeightedArbitrary<Mutation>[] = [
    { weight: 60, arbitrary: fc.record({ kind: fc.constant("drop-key" as const), pick }) },
    {
      weight: 60,
      arbitrary: fc.record({
        kind: fc.constant("change-type" as const),
        pick,
        value: hostileValue,
      }),
    },
    { weight: 60, arbitrary: fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }) },
    {
      weight: 40,
      arbitrary: fc.record({
        kind: fc.constant("duplicate-key" as const),
        pick,
        value: hostileValue,
      }),
    },
    {
      weight: 30,
      arbitrary: fc.record({
        kind: fc.constant("invalid-utf8" as const),
        at: fc.nat(),
        bytes: invalidUtf8,
      }),
    },
    {
      weight: 20,
      arbitrary: fc.record({
        kind: fc.constant("lone-surrogate" as const),
        at: fc.nat(),
        unit: fc.integer({ min: 0xd800, max: 0xdfff }),
      }),
    },
    { weight: 20, arbitrary: fc.constant({ kind: "bom" as const }) },
    { weight: 20, arbitrary: fc.constant({ kind: "crlf" as const }) },
    {
      weight: 40,
      arbitrary: fc.record({
        kind: fc.constant("big-number" as const),
        pick,
        literal: fc.constantFrom(...bigNumberLiterals),
      }),
    },
    {
      weight: 50,
      arbitrary: fc.record({
        kind: fc.constant("prototype-key" as const),
        pick,
        key: fc.constantFrom(...prototypeKeys),
        value: fc.constantFrom<unknown>(
          { polluted: "yes" },
          { prototype: { polluted: "yes" } },
          "polluted",
          null,
          [],
        ),
      }),
    },
    ...(heavy ? heavyMutations : []),
  ];
  return fc.oneof(...weighted);
}
