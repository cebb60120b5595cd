// stream-json lines → a Common transcript, one line at a time, so a live
// reader can show a conversation as it arrives. Not the text form (that is
// stream-json-lines.ts) and not the writer. Every line type is accounted
// for: converted, or dropped with the loss named (stream-json-losses.ts).
import {
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  ownValue,
  quote,
  type Transcript,
  TxcriptError,
  type Usage,
  warn,
} from "@txcript/core";
import { blocksToCommon, invalidLine } from "./stream-json-blocks.js";
import { dialectClue } from "./stream-json-dialect.js";
import { harness, type StreamJsonDialect } from "./stream-json-lines.js";
import { streamJsonLossByCode as losses } from "./stream-json-losses.js";

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
const usageKeys = new Set([
  "input_tokens",
  "output_tokens",
  "cache_read_input_tokens",
  "cache_creation_input_tokens",
]);
const minimumTime = -62_167_219_200_000; // 0000-01-01
const maximumTime = 253_402_300_799_999; // 9999-12-31

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

export class StreamJsonAccumulator {
  readonly #options: StreamJsonReadOptions;
  readonly #start: number;
  #dialect: StreamJsonDialect | undefined;
  #sessionId: string | undefined;
  readonly #otherSessions = new Set<string>();
  readonly #uuids = new Set<string>();
  readonly #messages: Message[] = [];
  #init:
    | { cwd?: string; model?: string; cliVersion?: string; timestamp?: string; names?: true }
    | undefined;
  /** message.id of the last message when it is an assistant message (Claude's split lines). */
  #openAssistantId: string | undefined;
  #clock: number | undefined;
  /** The second last formatted by #iso, and its "YYYY-MM-DDTHH:MM:SS." prefix. */
  #isoSecond = Number.NaN;
  #isoPrefix = "";
  #lines = 0;

  constructor(options: StreamJsonReadOptions = {}) {
    this.#options = options;
    this.#start = options.startTime?.getTime() ?? 0;
    this.#dialect = options.dialect;
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
      if (this.#uuids.has(uuid)) return; // Claude Code repeats lines (replays); one is enough.
      this.#uuids.add(uuid);
    }
    const session = ownValue(value, "session_id");
    // An empty session_id names no session: it counts as absent.
    if (typeof session === "string" && session !== "" && !this.#acceptSession(session)) return;
    this.#dialect ??= dialectClue(value);
    const type = ownValue(value, "type");
    const where = `line ${line}`;
    switch (type) {
      case "system":
        if (ownValue(value, "subtype") === "init") this.#readInit(value, where);
        else warn(this.#options, losses.systemLines, `a system line was dropped`, where);
        return;
      case "user":
      case "assistant": {
        const parent = ownValue(value, "parent_tool_use_id");
        if (typeof parent === "string") {
          warn(this.#options, losses.subagentLines, "a subagent line was dropped", where);
          return;
        }
        if (type === "user") this.#readUser(value, line);
        else this.#readAssistant(value, line);
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
    if (this.#sessionId === undefined) return undefined;
    if (this.#otherSessions.size > 0 && this.#options.sessionId === undefined) {
      const sessions = [this.#sessionId, ...this.#otherSessions];
      throw new TxcriptError(
        "AMBIGUOUS",
        `the capture holds lines of ${sessions.length} sessions: ${sessions.join(", ")}`,
        { harness, hint: "pick one with the sessionId read option" },
      );
    }
    const first = this.#messages[0];
    const meta: Meta = {
      id: this.#sessionId,
      timestamp: this.#init?.timestamp ?? first?.timestamp ?? new Date(this.#start).toISOString(),
    };
    if (this.#init?.cwd !== undefined) meta.cwd = this.#init.cwd;
    if (this.#init?.cliVersion !== undefined) meta.cliVersion = this.#init.cliVersion;
    // An init that names the model (even as "", none) is the answer; else the first message's.
    const model = this.#init?.names
      ? this.#init.model
      : this.#messages.find((message) => message.model !== undefined)?.model;
    if (model !== undefined) meta.model = model;
    return {
      meta,
      messages: copy
        ? this.#messages.map((message) => ({ ...message, content: [...message.content] }))
        : this.#messages,
    };
  }

  /** The conversation: throws when no line named a session, or lines of several sessions. */
  transcript(): Transcript {
    return this.#transcript(true);
  }

  #transcript(copy: boolean): Transcript {
    const transcript = this.#snapshot(copy);
    if (transcript !== undefined) return transcript;
    if (this.#options.sessionId !== undefined)
      throw new TxcriptError("NOT_FOUND", `no line of session ${this.#options.sessionId}`, {
        harness,
        hint:
          this.#otherSessions.size > 0
            ? `the capture holds ${[...this.#otherSessions].join(", ")}`
            : "the capture names no session",
      });
    throw new TxcriptError("INVALID_DOCUMENT", "no line names a session_id", {
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
    if (Object.keys(value).some((key) => !initKeys.has(key)))
      warn(this.#options, losses.sessionDetails, "init details were dropped", where);
    if (this.#init !== undefined) return; // a later run of the same session: the first init wins.
    this.#init = {};
    const cwd = nonEmptyString(ownValue(value, "cwd"));
    const model = nonEmptyString(ownValue(value, "model"));
    const cliVersion = nonEmptyString(ownValue(value, "claude_code_version"));
    const timestamp = this.#ownTime(value);
    if (cwd !== undefined) this.#init.cwd = cwd;
    if (model !== undefined) this.#init.model = model;
    if (Object.hasOwn(value, "model")) this.#init.names = true;
    if (cliVersion !== undefined) this.#init.cliVersion = cliVersion;
    if (timestamp !== undefined) this.#init.timestamp = new Date(timestamp).toISOString();
  }

  #readUser(value: JsonObject, line: number): void {
    const message = this.#messageOf(value, line);
    if (Object.hasOwn(value, "tool_use_result"))
      warn(this.#options, losses.toolUseResult, "a tool_use_result was dropped", `line ${line}`);
    const raw = ownValue(message, "content");
    let content: Block[];
    if (typeof raw === "string") content = [{ type: "text", text: raw }];
    else if (Array.isArray(raw)) content = this.#blocks(raw, line);
    else
      throw this.#invalid(
        line,
        "has no content",
        "$.message.content",
        "a string or an array of blocks",
      );
    this.#openAssistantId = undefined;
    this.#messages.push({ role: "user", content, timestamp: this.#stamp(value, line) });
  }

  #readAssistant(value: JsonObject, line: number): void {
    const message = this.#messageOf(value, line);
    const raw = ownValue(message, "content");
    if (!Array.isArray(raw))
      throw this.#invalid(line, "has no content", "$.message.content", "an array of blocks");
    const content = this.#blocks(raw, line);
    const stopReason = this.#stopReason(value, message);
    const usage = this.#usage(message, line);
    const id = ownValue(message, "id");
    const last = this.#messages.at(-1);
    if (
      this.#dialect !== "amp" &&
      typeof id === "string" &&
      id === this.#openAssistantId &&
      last?.role === "assistant"
    ) {
      // One API message written as several lines: one Common message.
      last.content.push(...content);
      if (stopReason !== undefined) last.stopReason = stopReason;
      if (usage !== undefined) last.usage = usage; // each line repeats it: the latest wins
      return;
    }
    const assistant: Message = { role: "assistant", content, timestamp: this.#stamp(value, line) };
    const model = nonEmptyString(ownValue(message, "model"));
    if (model !== undefined) assistant.model = model;
    if (stopReason !== undefined) assistant.stopReason = stopReason;
    if (usage !== undefined) assistant.usage = usage;
    this.#openAssistantId = typeof id === "string" ? id : undefined;
    this.#messages.push(assistant);
  }

  #messageOf(value: JsonObject, line: number): JsonObject {
    const message = ownValue(value, "message");
    if (!isJsonObject(message))
      throw this.#invalid(line, "has no message object", "$.message", "an API message object");
    return message;
  }

  #stopReason(value: JsonObject, message: JsonObject): string | undefined {
    const reason = nonEmptyString(ownValue(message, "stop_reason"));
    if (reason !== undefined) return reason;
    if (ownValue(value, "aborted") === true) return "aborted";
    if (typeof ownValue(value, "error") === "string") return "error";
    return undefined;
  }

  #usage(message: JsonObject, line: number): Usage | undefined {
    const usage = ownValue(message, "usage");
    if (!isJsonObject(usage)) return undefined;
    if (Object.keys(usage).some((key) => !usageKeys.has(key)))
      warn(this.#options, losses.usageDetails, "usage details stay in the capture", `line ${line}`);
    const count = (key: string) => {
      const number = ownValue(usage, key);
      return typeof number === "number" && Number.isSafeInteger(number) && number > 0 ? number : 0;
    };
    const result: Usage = {
      inputTokens: count("input_tokens"),
      outputTokens: count("output_tokens"),
      cacheReadInputTokens: count("cache_read_input_tokens"),
      cacheCreationInputTokens: count("cache_creation_input_tokens"),
    };
    // Claude's required usage is all zeros on synthetic messages and on ours without usage.
    const none = Object.values(result).every((number) => number === 0);
    return none && this.#dialect !== "amp" ? undefined : result;
  }

  #blocks(raw: Json[], line: number): Block[] {
    return blocksToCommon(raw, {
      dialect: this.#dialect ?? "claude",
      line,
      onDropped: this.#onDropped,
    });
  }

  // One function for every line (not a closure per line): reports a dropped block.
  readonly #onDropped = (line: number, path: string): void =>
    warn(
      this.#options,
      losses.unknownBlocks,
      "a content block was dropped",
      `line ${line} ${path}`,
    );

  #ownTime(value: JsonObject): number | undefined {
    const own = ownValue(value, "timestamp");
    if (typeof own !== "string") return undefined;
    const time = Date.parse(own);
    return Number.isFinite(time) && time >= minimumTime && time <= maximumTime ? time : undefined;
  }

  #stamp(value: JsonObject, line: number): string {
    let time = this.#ownTime(value);
    if (time === undefined) {
      warn(this.#options, losses.synthesizedTimestamps, "a line had no timestamp", `line ${line}`);
      time = Math.min(this.#clock === undefined ? this.#start : this.#clock + 1, maximumTime);
    }
    this.#clock = time;
    return this.#iso(time);
  }

  /**
   * `new Date(time).toISOString()`, which is slow enough to show in profiles:
   * stamped lines are 1 ms apart, so most share the previous one's second and
   * only the milliseconds are written anew. Times are within years 0000–9999.
   */
  #iso(time: number): string {
    const second = Math.floor(time / 1000);
    if (second !== this.#isoSecond) {
      const iso = new Date(time).toISOString();
      this.#isoSecond = second;
      this.#isoPrefix = iso.slice(0, -4);
      return iso;
    }
    const ms = time - second * 1000;
    return `${this.#isoPrefix}${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z`;
  }

  #invalid(line: number, what: string, path: string, expected: string): TxcriptError {
    return invalidLine(line, what, path, expected);
  }
}
