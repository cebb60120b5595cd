// A harness's tool dialect when its tools are canonical tools under other
// names and parameter names: a table of {native, canonical, keys} rows.
// Reading, a call becomes the typed canonical tool only when its arguments
// fit exactly (every key one the row renames, the renamed input fits the
// canonical schema, and the dialect's `accepts` agrees); a call to a
// table tool that does not fit stays Raw under its native name, and any
// other name goes through fromCanonical. Writing renames back, key order
// kept; a typed tool with no exact native form is written under its
// canonical name, so it reads back as the same tool.
import { isJsonObject, type Json, type JsonObject } from "./json.js";
import { fromCanonical, toCanonical } from "./tool-inputs.js";
import type { Tool, TypedToolName } from "./tools.js";

/** One native tool that is a canonical tool with its parameters renamed. */
export interface RenamedToolSpec {
  /** The harness's name for the tool. */
  readonly native: string;
  readonly canonical: TypedToolName;
  /** [native parameter, canonical parameter] pairs; each side's names distinct. */
  readonly keys: readonly (readonly [string, string])[];
}

export interface RenamedToolDialectOptions {
  /**
   * Whether a renamed (canonical-keyed) input means the same in the harness
   * as in the canonical tool; a call it refuses stays Raw, and a typed tool
   * it refuses is written under its canonical name. Default: always.
   */
  readonly accepts?: (canonical: TypedToolName, input: JsonObject) => boolean;
}

export interface RenamedToolDialect {
  readonly specs: readonly RenamedToolSpec[];
  /** Whether `name` is one of the table's native names. */
  isNative(name: string): boolean;
  /** The canonical tool for a native call `name(input)`. */
  toTool(name: string, input: Json): Tool;
  /** The native call a tool is written as (its canonical form when no row fits exactly). */
  fromTool(tool: Tool): { name: string; input: Json };
}

/**
 * `input` with each key renamed by `pairs` ([from, to]), key order kept;
 * undefined when a key has no pair. Keys are defined, never assigned, so a
 * `__proto__` key stays an own key.
 */
export function renameKeys(
  input: JsonObject,
  pairs: readonly (readonly [string, string])[],
): JsonObject | undefined {
  const out: JsonObject = {};
  for (const key of Object.keys(input)) {
    const pair = pairs.find(([from]) => from === key);
    if (pair === undefined) return undefined;
    Object.defineProperty(out, pair[1], {
      value: input[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The dialect of a table of renamed tools (see the file's head). */
export function renamedToolDialect(
  specs: readonly RenamedToolSpec[],
  options: RenamedToolDialectOptions = {},
): RenamedToolDialect {
  const accepts = options.accepts ?? (() => true);
  const natives = new Set(specs.map((spec) => spec.native));
  const backwards = specs.map((spec) =>
    spec.keys.map(([native, canonical]): readonly [string, string] => [canonical, native]),
  );
  return {
    specs,
    isNative: (name) => natives.has(name),
    toTool(name, input) {
      if (!natives.has(name)) return fromCanonical(name, input);
      if (isJsonObject(input))
        for (const spec of specs) {
          if (spec.native !== name) continue;
          const renamed = renameKeys(input, spec.keys);
          if (renamed === undefined || !accepts(spec.canonical, renamed)) continue;
          const tool = fromCanonical(spec.canonical, renamed);
          if (tool.name !== "Raw") return tool;
        }
      return { name: "Raw", toolName: name, input };
    },
    fromTool(tool) {
      const canonical = toCanonical(tool);
      if (tool.name === "Raw" || !isJsonObject(canonical.input)) return canonical;
      if (!accepts(tool.name, canonical.input)) return canonical;
      for (const [index, spec] of specs.entries()) {
        if (spec.canonical !== tool.name) continue;
        const renamed = renameKeys(canonical.input, backwards[index] ?? []);
        if (renamed !== undefined) return { name: spec.native, input: renamed };
      }
      return canonical;
    },
  };
}
