// stream-json lines → a Common transcript, one line at a time, so a live
// reader can show a conversation as it arrives: the dispatch by line type,
// the session(s) a capture holds, init, and the transcript so far. The
// messages themselves are stream-json-messages.ts, their times
// stream-json-clock.ts; not the text form (stream-json-lines.ts) and not
// the writer. Every line type is accounted for: converted, or dropped with
// the loss named (stream-json-losses.ts).
import {
  type ConversionOptions,
  isCanonicalTimestamp,
  isJsonObject,
  type Json,
  type JsonObject,
  type Lineage,
  type Message,
  type Meta,
  ownValue,
  quote,
  StringIds,
  type Subagent,
  type Transcript,
  TxcriptError,
  warn,
} from "@txcript/core";
import { invalidLine } from "./stream-json-blocks.js";
import { LineClock, ownTimestamp } from "./stream-json-clock.js";
import { dialectClue } from "./stream-json-dialect.js";
import { harness, lineageKey, type StreamJsonDialect } from "./stream-json-lines.js";
import { streamJsonLoss as losses } from "./stream-json-losses.js";
import { StreamJsonMessages } from "./stream-json-messages.js";
import { callIds, nestSubagents } from "./stream-json-subagents.js";

export interface StreamJsonReadOptions extends ConversionOptions {
  /** Keep only this session's lines (a file several sessions appended to). */
  sessionId?: string;
  /** Read as this dialect instead of detecting it from the lines. */
  dialect?: StreamJsonDialect;
}

/** One line as the live reader yields it; `line` numbers errors. */
export interface StreamJsonRecord {
  value: Json;
  line?: number;
}

const initKeys = new Set([
  "type",
  "subtype",
  "cwd",
  "session_id",
  "model",
  "claude_code_version",
  "uuid",
  "timestamp",
]);

/** A line's type for a message: a string cut short, anything else by its kind (never stringified). */
function describeType(type: Json | undefined): string {
  if (typeof type === "string") return quote(type, 40);
  if (type === undefined) return "(none)";
  if (type === null) return "null";
  if (Array.isArray(type)) return "(an array)";
  return `(${typeof type === "object" ? "an object" : `a ${typeof type}`})`;
}

function nonEmptyString(value: Json | undefined): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** init's txcript_lineage, when it holds a well-formed lineage. */
function readLineage(value: Json | undefined): Lineage | undefined {
  if (!isJsonObject(value) || Object.keys(value).length !== 4) return undefined;
  const harness = nonEmptyString(ownValue(value, "harness"));
  const id = nonEmptyString(ownValue(value, "id"));
  const txcriptVersion = nonEmptyString(ownValue(value, "txcriptVersion"));
  const convertedAt = ownValue(value, "convertedAt");
  if (harness === undefined || id === undefined || txcriptVersion === undefined) return undefined;
  if (typeof convertedAt !== "string" || !isCanonicalTimestamp(convertedAt)) return undefined;
  return { harness, id, txcriptVersion, convertedAt };
}

/**
 * Builds a Transcript from stream-json lines pushed in order. `snapshot()`
 * may be called between pushes (a live view); `transcript()` is the final
 * answer and throws when the lines do not make one conversation.
 */
/** Set by StreamJsonAccumulator's static block: reaches its private #transcript. */
let takeTranscript: (accumulator: StreamJsonAccumulator) => Transcript;

/**
 * `accumulator.transcript()` without copying the messages, for a caller that
 * drops the accumulator right after (the codec's toCommon): no later push
 * can reach what it returns. Internal; not exported from the package.
 */
export function finalTranscript(accumulator: StreamJsonAccumulator): Transcript {
  return takeTranscript(accumulator);
}

/**
 * What the streaming reader (stream-json-stream.ts) needs of an accumulator
 * beyond push: internal, not exported from the package. Set by the class's
 * static block.
 */
export interface AccumulatorInternals {
  /** The main conversation's reader (its messages not yet handed out, its part-id hook). */
  main(accumulator: StreamJsonAccumulator): StreamJsonMessages;
  /** Hands out the first `count` main messages, keeping what the meta needs of them. */
  take(accumulator: StreamJsonAccumulator, count: number): Message[];
  /** Drops the subagents' messages read so far (the first pass keeps only their keys). */
  dropSubagentMessages(accumulator: StreamJsonAccumulator): void;
  /** The subagents' keys (parent_tool_use_id), in order of first appearance. */
  subagentKeys(accumulator: StreamJsonAccumulator): string[];
  /** The meta as transcript() has it (and its refusals), from messages handed out and held. */
  meta(accumulator: StreamJsonAccumulator): Meta;
  /** The subagents as transcript() nests them, given the main conversation's calls of their keys. */
  subagents(accumulator: StreamJsonAccumulator, mainCalls: ReadonlySet<string>): Subagent[];
}

export let accumulatorInternals: AccumulatorInternals;

/** How an accumulator reads: whole (the codec, a live view) or as one of the streaming reader's passes. */
export type AccumulatorMode = "whole" | "scan" | "stream";

export class StreamJsonAccumulator {
  readonly #options: StreamJsonReadOptions;
  readonly #clock: LineClock;
  readonly #reader: StreamJsonMessages;
  /** Subagents' lines by parent_tool_use_id, in order of first appearance. */
  readonly #subagents = new Map<string, StreamJsonMessages>();
  #dialect: StreamJsonDialect | undefined;
  #sessionId: string | undefined;
  readonly #otherSessions = new Set<string>();
  readonly #mode: AccumulatorMode;
  /** The uuids seen: a Set, or (streaming a long capture) compact StringIds. */
  readonly #uuids: Set<string> | StringIds;
  /** Of the main messages handed out (streaming): the first's timestamp, the first model. */
  #takenTimestamp: string | undefined;
  #takenModel: string | undefined;
  #init:
    | {
        cwd?: string;
        model?: string;
        cliVersion?: string;
        timestamp?: string;
        lineage?: Lineage;
        names?: true;
      }
    | undefined;
  #lines = 0;

  /** `mode` is internal (the streaming reader's passes); the default reads whole. */
  constructor(options: StreamJsonReadOptions = {}, mode: AccumulatorMode = "whole") {
    this.#options = options;
    this.#mode = mode;
    this.#uuids = mode === "whole" ? new Set() : new StringIds();
    this.#clock = new LineClock(options.startTime?.getTime() ?? 0);
    this.#reader = new StreamJsonMessages(options, this.#clock, mode === "scan");
    this.#dialect = options.dialect;
  }

  /** Whether `uuid` was seen before; records it. */
  #repeats(uuid: string): boolean {
    const uuids = this.#uuids;
    if (uuids instanceof Set) {
      if (uuids.has(uuid)) return true;
      uuids.add(uuid);
      return false;
    }
    const before = uuids.size;
    uuids.id(uuid);
    return uuids.size === before;
  }

  /** The dialect decided so far (from the first line that tells, or the option). */
  get dialect(): StreamJsonDialect | undefined {
    return this.#dialect;
  }

  /** The session the transcript is about, once a line named one. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** Feed the next line of the capture. Throws INVALID_DOCUMENT for a line it cannot read. */
  push(record: StreamJsonRecord): void {
    this.#lines += 1;
    const line = record.line ?? this.#lines;
    const { value } = record;
    if (!isJsonObject(value))
      throw this.#invalid(line, "is not a JSON object", "$", "one stream-json message object");
    const uuid = ownValue(value, "uuid");
    if (typeof uuid === "string") {
      if (this.#repeats(uuid)) return; // Claude Code repeats lines (replays); one is enough.
    }
    const session = ownValue(value, "session_id");
    // An empty session_id names no session: it counts as absent.
    if (typeof session === "string" && session !== "" && !this.#acceptSession(session)) return;
    this.#dialect ??= dialectClue(value);
    const type = ownValue(value, "type");
    const where = `line ${line}`;
    switch (type) {
      case "system": {
        const subtype = ownValue(value, "subtype");
        if (subtype === "init") this.#readInit(value, where);
        else if (subtype === "compact_boundary") this.#reader.readCompaction(value, line);
        else warn(this.#options, losses.systemLines, `a system line was dropped`, where);
        return;
      }
      case "user":
      case "assistant": {
        const parent = ownValue(value, "parent_tool_use_id");
        // A subagent's line: its conversation, keyed by the spawning call's id.
        let reader = this.#reader;
        if (typeof parent === "string" && parent !== "") {
          reader =
            this.#subagents.get(parent) ??
            new StreamJsonMessages(this.#options, this.#clock, this.#mode === "scan");
          this.#subagents.set(parent, reader);
        }
        const dialect = this.#dialect ?? "claude";
        if (type === "user") reader.readUser(value, line, dialect);
        else reader.readAssistant(value, line, dialect);
        return;
      }
      case "result":
        warn(this.#options, losses.runStatistics, "a result line was dropped", where);
        return;
      case "stream_event":
        warn(this.#options, losses.partialEvents, "a stream_event line was skipped", where);
        return;
      default:
        warn(
          this.#options,
          losses.unknownLines,
          `a line of type ${describeType(type)} was dropped`,
          where,
        );
    }
  }

  static {
    takeTranscript = (accumulator) => accumulator.#transcript(false);
    accumulatorInternals = {
      main: (accumulator) => accumulator.#reader,
      take: (accumulator, count) => accumulator.#take(count),
      dropSubagentMessages: (accumulator) => {
        for (const reader of accumulator.#subagents.values()) reader.messages.length = 0;
      },
      subagentKeys: (accumulator) => [...accumulator.#subagents.keys()],
      meta: (accumulator) => {
        const messages = accumulator.#reader.messages;
        const meta = accumulator.#meta(
          accumulator.#takenTimestamp ?? messages[0]?.timestamp,
          accumulator.#takenModel ?? messages.find((message) => message.model !== undefined)?.model,
        );
        if (meta === undefined) throw accumulator.#noSession();
        return meta;
      },
      subagents: (accumulator, mainCalls) =>
        nestSubagents(
          [...accumulator.#subagents].map(([key, reader]) => ({ key, messages: reader.messages })),
          mainCalls,
        ),
    };
  }

  #take(count: number): Message[] {
    const taken = this.#reader.messages.splice(0, count);
    const first = taken[0];
    if (first !== undefined) this.#takenTimestamp ??= first.timestamp;
    this.#takenModel ??= taken.find((message) => message.model !== undefined)?.model;
    return taken;
  }

  /** The conversation so far, or undefined before any line named a session. */
  snapshot(): Transcript | undefined {
    return this.#snapshot(true);
  }

  /**
   * `copy` gives the caller its own message objects and content arrays, so
   * later pushes (which extend the last assistant message) cannot change a
   * snapshot already handed out; only an accumulator that is dropped
   * afterwards may skip it (see finalTranscript).
   */
  #snapshot(copy: boolean): Transcript | undefined {
    const messages = this.#reader.messages;
    const meta = this.#meta(
      messages[0]?.timestamp,
      messages.find((message) => message.model !== undefined)?.model,
    );
    if (meta === undefined) return undefined;
    const own = (list: Message[]) =>
      copy ? list.map((message) => ({ ...message, content: [...message.content] })) : list;
    const transcript: Transcript = { meta, messages: own(messages) };
    if (this.#subagents.size > 0)
      transcript.subagents = nestSubagents(
        [...this.#subagents].map(([key, reader]) => ({ key, messages: own(reader.messages) })),
        callIds(messages),
      );
    return transcript;
  }

  /**
   * The meta, given the first main message's timestamp and the first main
   * model; undefined before any line named a session; throws AMBIGUOUS for
   * lines of several sessions.
   */
  #meta(firstTimestamp: string | undefined, firstModel: string | undefined): Meta | undefined {
    if (this.#sessionId === undefined) return undefined;
    if (this.#otherSessions.size > 0 && this.#options.sessionId === undefined) {
      const sessions = [this.#sessionId, ...this.#otherSessions];
      throw new TxcriptError(
        "AMBIGUOUS",
        `the capture holds lines of ${sessions.length} sessions: ${sessions.join(", ")}`,
        { harness, hint: "pick one with the sessionId read option" },
      );
    }
    const meta: Meta = {
      id: this.#sessionId,
      timestamp: this.#init?.timestamp ?? firstTimestamp ?? this.#clock.start,
    };
    if (this.#init?.cwd !== undefined) meta.cwd = this.#init.cwd;
    if (this.#init?.cliVersion !== undefined) meta.cliVersion = this.#init.cliVersion;
    // An init that names the model (even as "", none) is the answer; else the first message's.
    const model = this.#init?.names ? this.#init.model : firstModel;
    if (model !== undefined) meta.model = model;
    if (this.#init?.lineage !== undefined) meta.lineage = this.#init.lineage;
    return meta;
  }

  /** The conversation: throws when no line named a session, or lines of several sessions. */
  transcript(): Transcript {
    return this.#transcript(true);
  }

  #transcript(copy: boolean): Transcript {
    const transcript = this.#snapshot(copy);
    if (transcript !== undefined) return transcript;
    throw this.#noSession();
  }

  /** The refusal for a capture in which no line (of the wanted session) named a session. */
  #noSession(): TxcriptError {
    if (this.#options.sessionId !== undefined)
      return new TxcriptError("NOT_FOUND", `no line of session ${this.#options.sessionId}`, {
        harness,
        hint:
          this.#otherSessions.size > 0
            ? `the capture holds ${[...this.#otherSessions].join(", ")}`
            : "the capture names no session",
      });
    return new TxcriptError("INVALID_DOCUMENT", "no line names a session_id", {
      harness,
      hint: 'a stream-json capture starts with {"type":"system","subtype":"init","session_id":...}',
    });
  }

  #acceptSession(session: string): boolean {
    const wanted = this.#options.sessionId;
    if (wanted !== undefined) {
      if (session === wanted) {
        this.#sessionId = wanted;
        return true;
      }
      this.#otherSessions.add(session);
      return false;
    }
    if (this.#sessionId === undefined) this.#sessionId = session;
    if (session === this.#sessionId) return true;
    this.#otherSessions.add(session);
    return false;
  }

  #readInit(value: JsonObject, where: string): void {
    const lineage = readLineage(ownValue(value, lineageKey));
    if (Object.keys(value).some((key) => !initKeys.has(key) && !(key === lineageKey && lineage)))
      warn(this.#options, losses.sessionDetails, "init details were dropped", where);
    if (this.#init !== undefined) return; // a later run of the same session: the first init wins.
    this.#init = {};
    const cwd = nonEmptyString(ownValue(value, "cwd"));
    const model = nonEmptyString(ownValue(value, "model"));
    const cliVersion = nonEmptyString(ownValue(value, "claude_code_version"));
    const timestamp = ownTimestamp(value);
    if (cwd !== undefined) this.#init.cwd = cwd;
    if (model !== undefined) this.#init.model = model;
    if (Object.hasOwn(value, "model")) this.#init.names = true;
    if (cliVersion !== undefined) this.#init.cliVersion = cliVersion;
    if (timestamp !== undefined) this.#init.timestamp = timestamp;
    if (lineage !== undefined) this.#init.lineage = lineage;
  }

  #invalid(line: number, what: string, path: string, expected: string): TxcriptError {
    return invalidLine(line, what, path, expected);
  }
}
