// A pi session read line by line (core's stream.ts), with the meta,
// messages and warnings of piToCommon(parseSession(text)).
//
// The conversation is the parentId path from the last entry to the root
// (pi-tree.ts), known only once every line is read. So pass one parses each
// line (the same parse errors, at the same line) and keeps, per entry, only
// its line number, its id and parentId (interned), and a few flags; of the
// rest only the header line, the latest session name, and each
// compaction's reference to the entry it keeps. That settles the path, the
// abandoned branches and the header's warnings. Pass two (skipped when the
// header has a timestamp and nothing on the path sets the model or the
// lineage) reads the few path lines the meta needs. Pass three reads the
// path's lines, in path order, through the whole read's own entry reader
// (readPathEntry) and hands out each message once it is final: a tool
// result message when the next message starts, and a message a later
// compaction copies into its history once that compaction is read. Memory
// is pass one's columns, plus those held messages, plus the path lines
// read ahead of their turn (none in a file pi wrote: a parent comes before
// its children).
import {
  type CodecOptions,
  IntColumn,
  type JsonObject,
  type LineSource,
  type Message,
  objectAt,
  ownValue,
  parseJsonObjectLine,
  type StreamPart,
  StringIds,
  stringAt,
  TxcriptError,
} from "@txcript/core";
import { isoTimestamp } from "./pi-content.js";
import { readLineage } from "./pi-read-meta.js";
import { harness, isHeader, versionOf } from "./pi-schema.js";
import {
  assistantModelOf,
  headerModelOf,
  headerWarnings,
  keptReference,
  lineageType,
  type MessageLog,
  newReader,
  type PathFacts,
  type PiReadOptions,
  piMeta,
  readPathEntry,
} from "./pi-to-common.js";
import { conversationTypes, parentIdOf, treePath } from "./pi-tree.js";

const conversation = 1;
const modelChange = 2;
const assistantModel = 4;
const lineage = 8;

/** What pass one keeps: per entry (file order, `session` lines left out) its line, keys and flags. */
interface Skeleton {
  header: JsonObject | undefined;
  version: number;
  lines: IntColumn;
  /** Interned id and parentId (-1: none). */
  ids: IntColumn;
  parents: IntColumn;
  flags: IntColumn;
  keys: StringIds;
  /** Each compaction entry's reference to its first kept entry. */
  kept: Map<number, { id: string } | { index: number }>;
  title: string | undefined;
}

function fileOf(options: CodecOptions): { file?: string } {
  return typeof options.file === "string" ? { file: options.file } : {};
}

function changed(options: CodecOptions, line?: number): TxcriptError {
  return new TxcriptError("MISMATCH", "the session changed between the passes", {
    harness,
    location: { ...fileOf(options), ...(line === undefined ? {} : { line }) },
    hint: "the file changed while it was read, or this is a bug in txcript's streaming reader",
  });
}

function flagsOf(entry: JsonObject): number {
  const type = stringAt(entry, "type") ?? "";
  let flags = conversationTypes.has(type) ? conversation : 0;
  if (type === "model_change") flags |= modelChange;
  if (assistantModelOf(entry) !== undefined) flags |= assistantModel;
  if (
    type === "custom" &&
    stringAt(entry, "customType") === lineageType &&
    readLineage(objectAt(entry, "data")) !== undefined
  )
    flags |= lineage;
  return flags;
}

function skeletonOf(lines: LineSource, options: CodecOptions): Skeleton {
  const parse = { harness, ...fileOf(options) };
  const skeleton: Skeleton = {
    header: undefined,
    version: 1,
    lines: new IntColumn(),
    ids: new IntColumn(),
    parents: new IntColumn(),
    flags: new IntColumn(),
    keys: new StringIds(),
    kept: new Map(),
    title: undefined,
  };
  let first = true;
  let number = 0;
  for (const text of lines()) {
    number += 1;
    const { value } = parseJsonObjectLine(text, number, parse);
    if (value === undefined) continue;
    if (first) {
      first = false;
      skeleton.header = isHeader(value) ? value : undefined;
      skeleton.version = versionOf(skeleton.header);
    }
    // pi drops every `session` line from the entries, wherever it is.
    if (ownValue(value, "type") === "session") continue;
    const index = skeleton.lines.length;
    const id = stringAt(value, "id");
    const parent = parentIdOf(value);
    skeleton.lines.push(number);
    skeleton.ids.push(id === undefined ? -1 : skeleton.keys.id(id));
    skeleton.parents.push(parent === undefined ? -1 : skeleton.keys.id(parent));
    skeleton.flags.push(flagsOf(value));
    const type = stringAt(value, "type");
    if (type === "compaction") {
      const reference = keptReference(value);
      if (reference !== undefined) skeleton.kept.set(index, reference);
    } else if (type === "session_info") {
      // The latest session_info names the session (a blank name clears it), as readTitle.
      const name = stringAt(value, "name");
      skeleton.title = name !== undefined && name.trim() !== "" ? name : undefined;
    }
  }
  return skeleton;
}

/** The path as entry indices, root first (pi-tree's walk over pass one's columns). */
function pathOf(skeleton: Skeleton): number[] {
  const count = skeleton.lines.length;
  if (skeleton.version < 2) return Array.from({ length: count }, (_, index) => index);
  const last = new Int32Array(skeleton.keys.size).fill(-1);
  const key = (column: IntColumn) => (index: number) => {
    const value = column.at(index);
    return value === -1 ? undefined : value;
  };
  return treePath(count, key(skeleton.ids), key(skeleton.parents), {
    set: (id, index) => {
      last[id] = index;
    },
    get: (id) => {
      const index = last[id] as number;
      return index === -1 ? undefined : index;
    },
  });
}

/**
 * The entries at `positions` of the path (increasing), in that order, read
 * from their lines; a line read before its turn waits for it.
 */
function* pathEntries(
  lines: LineSource,
  skeleton: Skeleton,
  path: readonly number[],
  positions: readonly number[],
  options: CodecOptions,
): Generator<[position: number, entry: JsonObject]> {
  const lineOf = (position: number) => skeleton.lines.at(path[position] as number);
  const byLine = [...positions].sort((a, b) => lineOf(a) - lineOf(b));
  const parse = { harness, ...fileOf(options) };
  const waiting = new Map<number, JsonObject>();
  let taken = 0;
  let next = 0;
  let number = 0;
  for (const text of lines()) {
    number += 1;
    if (next === positions.length) return;
    if (taken === byLine.length || lineOf(byLine[taken] as number) !== number) continue;
    const position = byLine[taken] as number;
    taken += 1;
    const { value } = parseJsonObjectLine(text, number, parse);
    const id = skeleton.ids.at(path[position] as number);
    const found = value === undefined ? undefined : stringAt(value, "id");
    if (
      value === undefined ||
      ownValue(value, "type") === "session" ||
      (found === undefined ? -1 : skeleton.keys.find(found)) !== id
    )
      throw changed(options, number);
    waiting.set(position, value);
    for (let entry = waiting.get(positions[next] as number); entry !== undefined; ) {
      const at = positions[next] as number;
      waiting.delete(at);
      next += 1;
      yield [at, entry];
      entry = next < positions.length ? waiting.get(positions[next] as number) : undefined;
    }
  }
  if (next !== positions.length) throw changed(options);
}

/** The path's facts for the meta (pass two): only the lines that set them are read. */
function factsOf(
  lines: LineSource,
  skeleton: Skeleton,
  path: readonly number[],
  options: CodecOptions,
): PathFacts {
  const { header } = skeleton;
  const facts: PathFacts = {
    firstTimestamp: undefined,
    modelChanged: false,
    model: undefined,
    lineage: undefined,
  };
  const first = (flag: number) => {
    const position = path.findIndex((index) => (skeleton.flags.at(index) & flag) !== 0);
    return position === -1 ? undefined : position;
  };
  const changePosition = first(modelChange);
  facts.modelChanged = changePosition !== undefined;
  // The header's model wins; without it, the first model change's, else the first assistant's.
  const modelPosition =
    header !== undefined && headerModelOf(header) !== undefined
      ? undefined
      : (changePosition ?? first(assistantModel));
  const lineagePosition = first(lineage);
  const timed = header !== undefined && isoTimestamp(ownValue(header, "timestamp")) !== undefined;
  const wanted = [modelPosition, lineagePosition].filter(
    (position): position is number => position !== undefined,
  );
  if (timed && wanted.length === 0) return facts;
  const last = Math.max(-1, ...wanted);
  // Without a header time, the first message's: the path read (silently) from the root to it.
  let pushed = 0;
  const counter: MessageLog = {
    get length() {
      return pushed;
    },
    push(message: Message) {
      if (pushed === 0) facts.firstTimestamp = message.timestamp;
      pushed += 1;
    },
    slice: () => [],
  };
  const reader = timed
    ? undefined
    : newReader(undefined, skeleton.version, header, counter, () => undefined);
  const positions = timed ? [...new Set(wanted)].sort((a, b) => a - b) : path.map((_, at) => at);
  for (const [position, entry] of pathEntries(lines, skeleton, path, positions, options)) {
    if (reader !== undefined && pushed === 0) readPathEntry(reader, entry);
    if (position === modelPosition)
      facts.model = facts.modelChanged
        ? stringAt(entry, "modelId") || undefined
        : assistantModelOf(entry);
    if (position === lineagePosition) facts.lineage = readLineage(objectAt(entry, "data"));
    if (position >= last && (reader === undefined || pushed > 0)) break;
  }
  return facts;
}

/** The messages read and not yet handed out, or still to be copied by a later compaction. */
class HeldMessages implements MessageLog {
  #held: Message[] = [];
  /** The index of the first held message among all read. */
  #base = 0;
  /** How many have been handed out. */
  handed = 0;

  get length(): number {
    return this.#base + this.#held.length;
  }

  push(message: Message): void {
    this.#held.push(message);
  }

  slice(start: number): Message[] {
    if (start < this.#base) throw new Error("pi stream: a compaction's history was let go");
    return this.#held.slice(start - this.#base);
  }

  /** Hands out the messages before `end`. */
  *handOut(end: number): Generator<Message> {
    while (this.handed < end) {
      yield this.#held[this.handed - this.#base] as Message;
      this.handed += 1;
    }
  }

  /** Lets go of the messages before `index` (handed out, and copied by no compaction to come). */
  release(index: number): void {
    if (index <= this.#base) return;
    this.#held.splice(0, index - this.#base);
    this.#base = index;
  }
}

/**
 * The parts of a pi session read line by line (pass `file` in the options
 * for error locations). One meta, then the messages; pi has no subagents.
 */
export function* piReadStream(lines: LineSource, options: CodecOptions): Generator<StreamPart> {
  const read = options as PiReadOptions;
  const skeleton = skeletonOf(lines, options);
  const path = pathOf(skeleton);
  const { header } = skeleton;
  let abandonedCount = 0;
  if (skeleton.version >= 2) {
    const onPath = new Uint8Array(skeleton.lines.length);
    for (const index of path) onPath[index] = 1;
    for (let index = 0; index < skeleton.lines.length; index += 1)
      if (onPath[index] === 0 && (skeleton.flags.at(index) & conversation) !== 0)
        abandonedCount += 1;
  }
  headerWarnings(header, abandonedCount, read);
  const meta = piMeta(header, skeleton.title, factsOf(lines, skeleton, path, options));
  yield { kind: "meta", meta, subagents: false };

  // Each compaction's kept entry, as a path position before it (else it copies nothing).
  const position = new Map<number, number>();
  for (const [at, index] of path.entries()) position.set(index, at);
  const lastById = new Map<number, number>();
  for (const [at, index] of path.entries()) {
    const id = skeleton.ids.at(index);
    if (id !== -1) lastById.set(id, at);
  }
  const keptOf = new Map<number, number>();
  for (const [at, index] of path.entries()) {
    const reference = skeleton.kept.get(index);
    if (reference === undefined) continue;
    let kept: number | undefined;
    if ("id" in reference) {
      const key = skeleton.keys.find(reference.id);
      kept = key === -1 ? undefined : lastById.get(key);
    } else {
      // firstKeptEntryIndex counts the header as entry 0 when there is one.
      const entry = header === undefined ? reference.index : reference.index - 1;
      kept = entry < 0 ? undefined : position.get(entry);
    }
    if (kept !== undefined && kept < at) keptOf.set(at, kept);
  }
  position.clear();
  lastById.clear();
  const referenced = new Set(keptOf.values());
  // The compactions still to come, in path order, with their kept positions.
  const pending = [...keptOf.entries()].sort((a, b) => a[0] - b[0]);
  let done = 0;
  const starts = new Map<number, number>();
  let current = 0;
  const held = new HeldMessages();
  const reader = newReader(read, skeleton.version, header, held, () => {
    const kept = keptOf.get(current);
    return kept === undefined ? undefined : starts.get(kept);
  });
  const all = path.map((_, at) => at);
  for (const [at, entry] of pathEntries(lines, skeleton, path, all, options)) {
    current = at;
    const start = readPathEntry(reader, entry);
    if (referenced.has(at)) starts.set(at, start);
    while (done < pending.length && (pending[done] as [number, number])[0] <= at) done += 1;
    // The open tool results message may still grow.
    const final = reader.results === undefined ? held.length : held.length - 1;
    for (const message of held.handOut(final)) yield { kind: "message", message };
    let keep = held.handed;
    for (let next = done; next < pending.length; next += 1) {
      const start = starts.get((pending[next] as [number, number])[1]);
      if (start !== undefined && start < keep) keep = start;
    }
    held.release(keep);
  }
  for (const message of held.handOut(held.length)) yield { kind: "message", message };
}
