// Amp's tool dialect: Amp tool names and inputs ⇄ Common canonical tools.
// Public API, shared with @txcript/stream-json (Amp's --stream-json output
// uses the same names and inputs). A typed tool is produced only when the
// Amp input maps exactly and maps back to the identical input; anything else
// is Raw, untouched. This module knows nothing about thread documents.
import {
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  jsonEqual,
  type Tool,
  type TypedTool,
  type TypedToolName,
} from "@txcript/core";

/**
 * Which spelling of the shell tool `ampToolFromCommon` writes. `legacy`
 * (`Bash {cmd, cwd}`) is what the era-matched CLI 0.0.1768018268 knows
 * (its bundle has no `shell_command`); `modern` (`shell_command {command,
 * workdir}`) is what CLI 0.0.1785… wrote in the real export. Every other
 * tool has one spelling in both eras.
 */
export type AmpToolEra = "legacy" | "modern";

/** The era `ampToolFromCommon` and every Amp writer use when none is asked for. */
export const defaultAmpToolEra: AmpToolEra = "legacy";

export interface AmpToolOptions {
  /** Default `legacy` (defaultAmpToolEra). */
  toolEra?: AmpToolEra;
}

/** One Amp tool and how its input keys map onto a canonical tool's. */
interface Dialect {
  ampName: string;
  canonical: TypedToolName;
  /** Amp input → canonical input, or undefined when a key has no counterpart. */
  decode(input: JsonObject): JsonObject | undefined;
  /** Canonical input → Amp input, or undefined when a key has no counterpart. */
  encode(input: JsonObject): JsonObject | undefined;
}

/*
 * The dialects below build their output by assigning keys, which is safe
 * only because every key they write is one of their own constant names
 * (never a key copied from input): an input key outside a dialect's table
 * makes the call Raw before anything is written. The check below keeps the
 * tables honest, so `out[name] = value` can never reach a prototype setter.
 * (Plain assignment is several times cheaper than `Object.defineProperty`
 * per key, and this runs for every tool call in a thread.)
 */
function assertPlainNames(names: Iterable<string>): void {
  for (const name of names)
    if (name === "__proto__") throw new Error("a dialect table may not name __proto__");
}

/** Rename keys one-to-one (values untouched), keeping the input's key order. */
function renameKeys(input: JsonObject, names: ReadonlyMap<string, string>): JsonObject | undefined {
  const object: JsonObject = {};
  for (const key of Object.keys(input)) {
    const renamed = names.get(key);
    if (renamed === undefined) return undefined;
    object[renamed] = input[key] as Json;
  }
  return object;
}

function renaming(ampName: string, canonical: TypedToolName, pairs: [string, string][]): Dialect {
  const toCanonicalKeys = new Map(pairs);
  const toAmpKeys = new Map(pairs.map(([amp, common]) => [common, amp]));
  assertPlainNames(toCanonicalKeys.keys());
  assertPlainNames(toCanonicalKeys.values());
  return {
    ampName,
    canonical,
    decode: (input) => renameKeys(input, toCanonicalKeys),
    encode: (input) => renameKeys(input, toAmpKeys),
  };
}

/**
 * `Read {path, read_range: [first, last]}` (1-based, inclusive) ⇄
 * `Read {file_path, offset: first, limit: last - first + 1}`. Only both of
 * offset and limit together have a read_range spelling.
 */
const readDialect: Dialect = {
  ampName: "Read",
  canonical: "Read",
  decode(input) {
    const object: JsonObject = {};
    for (const key of Object.keys(input)) {
      const value = input[key] as Json;
      if (key === "path") object.file_path = value;
      else if (key === "read_range") {
        if (!Array.isArray(value) || value.length !== 2) return undefined;
        const [first, last] = value;
        if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last)) return undefined;
        const limit = (last as number) - (first as number) + 1;
        if (!Number.isSafeInteger(limit)) return undefined;
        object.offset = first as number;
        object.limit = limit;
      } else return undefined;
    }
    return object;
  },
  encode(input) {
    const object: JsonObject = {};
    const offset = input.offset;
    const limit = input.limit;
    for (const key of Object.keys(input)) {
      if (key === "file_path") object.path = input[key] as Json;
      else if (key === "offset" || key === "limit") {
        if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(limit)) return undefined;
        const last = (offset as number) + (limit as number) - 1;
        if (!Number.isSafeInteger(last)) return undefined;
        // read_range takes the place of whichever of the two came first.
        if (!Object.hasOwn(object, "read_range")) object.read_range = [offset as number, last];
      } else return undefined;
    }
    return object;
  },
};

/** `Grep {caseSensitive}` is the negation of canonical `-i`; other keys keep their names. */
const grepDialect: Dialect = {
  ampName: "Grep",
  canonical: "Grep",
  decode(input) {
    const object: JsonObject = {};
    for (const key of Object.keys(input)) {
      const value = input[key] as Json;
      if (key === "pattern") object.pattern = value;
      else if (key === "path") object.path = value;
      else if (key === "glob") object.glob = value;
      else if (key === "caseSensitive" && typeof value === "boolean") object["-i"] = !value;
      else return undefined;
    }
    return object;
  },
  encode(input) {
    const object: JsonObject = {};
    for (const key of Object.keys(input)) {
      const value = input[key] as Json;
      if (key === "pattern") object.pattern = value;
      else if (key === "path") object.path = value;
      else if (key === "glob") object.glob = value;
      else if (key === "-i" && typeof value === "boolean") object.caseSensitive = !value;
      else return undefined;
    }
    return object;
  },
};

const legacyBash = renaming("Bash", "Bash", [
  ["cmd", "command"],
  ["cwd", "workdir"],
]);
const modernBash = renaming("shell_command", "Bash", [
  ["command", "command"],
  ["workdir", "workdir"],
]);

const dialects: Dialect[] = [
  legacyBash,
  modernBash,
  readDialect,
  renaming("edit_file", "Edit", [
    ["path", "file_path"],
    ["old_str", "old_string"],
    ["new_str", "new_string"],
    ["replace_all", "replace_all"],
  ]),
  renaming("create_file", "Write", [
    ["path", "file_path"],
    ["content", "content"],
  ]),
  renaming("glob", "Glob", [["filePattern", "pattern"]]),
  grepDialect,
  renaming("todo_write", "TodoWrite", [["todos", "todos"]]),
  renaming("todo_read", "TodoRead", []),
  renaming("read_web_page", "WebFetch", [
    ["url", "url"],
    ["objective", "prompt"],
  ]),
  renaming("Task", "Task", [
    ["prompt", "prompt"],
    ["description", "description"],
  ]),
];

const byAmpName = new Map(dialects.map((dialect) => [dialect.ampName, dialect]));
/** The first dialect of each canonical tool (Bash has two, chosen by era below). */
const byCanonical = new Map<TypedToolName, Dialect>();
for (const dialect of dialects)
  if (!byCanonical.has(dialect.canonical)) byCanonical.set(dialect.canonical, dialect);

function dialectFor(canonical: TypedToolName, era: AmpToolEra): Dialect | undefined {
  if (canonical === "Bash") return era === "modern" ? modernBash : legacyBash;
  return byCanonical.get(canonical);
}

/**
 * An Amp tool call as a Common tool: typed when the input maps exactly (and
 * maps back to the identical input, key order included), else
 * `Raw {toolName: name, input}` with the input untouched.
 *
 * Every decode above is undone exactly by its encode whenever it succeeds
 * (key renames are one-to-one; `read_range` ⇄ offset/limit is exact for the
 * safe integers decode accepts; `caseSensitive` ⇄ `-i` negates a boolean),
 * so mapping back is not re-done here for every call; the property test
 * "ampToolFromCommon(ampToolToCommon(name, input)) = {name, input}" holds
 * the dialects to it.
 */
export function ampToolToCommon(name: string, input: Json): Tool {
  const dialect = byAmpName.get(name);
  if (dialect !== undefined && isJsonObject(input)) {
    const canonicalInput = dialect.decode(input);
    if (canonicalInput !== undefined) {
      const tool = fromCanonical(dialect.canonical, canonicalInput);
      if (tool.name !== "Raw") return tool;
    }
  }
  return { name: "Raw", toolName: name, input };
}

/**
 * The Amp spelling of a typed tool in `era`, when one reads back as the very
 * same tool; undefined when Amp has no exact spelling for it. Not part of the
 * package entry: `ampProject` uses it to state which tools come back Raw.
 */
export function ampSpelling(
  tool: TypedTool,
  era: AmpToolEra = defaultAmpToolEra,
): { name: string; input: Json } | undefined {
  const dialect = dialectFor(tool.name, era);
  if (dialect === undefined) return undefined;
  const input = dialect.encode(tool.input as JsonObject);
  if (input === undefined) return undefined;
  return jsonEqual(ampToolToCommon(dialect.ampName, input), tool)
    ? { name: dialect.ampName, input }
    : undefined;
}

/**
 * A Common tool as an Amp tool call. A typed tool is written in the era's
 * Amp spelling (default `legacy`, what the era-matched CLI reads); a typed
 * tool Amp cannot spell exactly (MultiEdit, LS, Bash with a timeout, Read
 * with only an offset, ...) is written under its canonical name with its
 * canonical input and reads back as `Raw {toolName: name, input}`. A Raw tool
 * is written untouched, except a Raw pair that is itself an Amp spelling of
 * a typed tool, which is written in the era's spelling of that tool.
 */
export function ampToolFromCommon(
  tool: Tool,
  options: AmpToolOptions = {},
): { name: string; input: Json } {
  const era = options.toolEra ?? defaultAmpToolEra;
  if (tool.name === "Raw") {
    const read = ampToolToCommon(tool.toolName, tool.input);
    if (read.name !== "Raw") {
      const spelled = ampSpelling(read, era);
      if (spelled !== undefined) return spelled;
    }
    return { name: tool.toolName, input: tool.input };
  }
  return ampSpelling(tool, era) ?? { name: tool.name, input: tool.input as Json };
}
