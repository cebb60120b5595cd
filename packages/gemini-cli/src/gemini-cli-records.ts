// Replays a recording's records into the conversation Gemini CLI would load,
// with the same rules as its loader (chatRecordingService
// loadConversationRecord, 0.61.0): metadata lines and `$set` merge into the
// metadata, a message record replaces an earlier one with the same id in its
// place, a `$set.messages` array is a full checkpoint, `$rewindTo` cuts from
// that message on (everything when the id is unknown), bad lines are skipped.
// It counts what it dropped so toCommon can name each loss.
//
// RecordReplay is the loader's step, line by line, over what each caller
// keeps of a message record: the whole read keeps the record and its path
// (replay); the streaming reader's first pass keeps only where the record
// is (gemini-cli-stream.ts), and reads it again when it is handed out.
import {
  arrayAt,
  isJsonObject,
  type JsonObject,
  objectAt,
  ownValue,
  stringAt,
} from "@txcript/core";
import type { GeminiCliSession } from "./gemini-cli-schema.js";

/** What replay drops, counted. */
export interface ReplayCounts {
  badLines: number;
  /** Message records replaced by a later record with the same id. */
  replaced: number;
  /** Message records cut by `$rewindTo`. */
  rewound: number;
  /** Message records discarded by a `$set.messages` checkpoint. */
  checkpointed: number;
  /** Entries of a messages array that are not message records (no string id). */
  notMessages: number;
}

export interface Replayed extends ReplayCounts {
  metadata: JsonObject;
  /** Message records in conversation order, each with the JSON path it came from. */
  messages: { record: JsonObject; path: string }[];
}

/**
 * Where a message record is: a JSONL line (1-based; absent for the whole
 * document) and, for an entry of a messages array, which array and entry.
 */
export interface RecordAt {
  readonly line?: number;
  readonly list?: "messages" | "$set.messages";
  readonly entry?: number;
}

/** The JSON path warnings give for a record at `at`. */
export function recordPath(at: RecordAt): string {
  if (at.line === undefined) return `$.messages[${at.entry}]`;
  if (at.list === undefined) return `line ${at.line}`;
  return `line ${at.line} ${at.list}[${at.entry}]`;
}

/** The record at `at` in the value of its line (or the whole document). */
export function recordIn(value: JsonObject, at: RecordAt): unknown {
  if (at.list === undefined && at.line !== undefined) return value;
  const holder = at.list === "$set.messages" ? objectAt(value, "$set") : value;
  const messages = holder === undefined ? undefined : arrayAt(holder, "messages");
  return messages?.[at.entry as number];
}

export function assignAll(target: JsonObject, source: JsonObject): void {
  for (const key of Object.keys(source)) {
    Object.defineProperty(target, key, {
      value: source[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

/** The loader's replay, one line (or the whole document) at a time; `keep` is what a message record is kept as. */
export class RecordReplay<T> implements ReplayCounts {
  badLines = 0;
  replaced = 0;
  rewound = 0;
  checkpointed = 0;
  notMessages = 0;
  /** The messages so far, by id, in conversation order. */
  readonly byId = new Map<string, T>();

  constructor(
    private readonly keep: (record: JsonObject, at: RecordAt, id: string) => T,
    /** Called with each object merged into the metadata, in order. */
    private readonly merge: (source: JsonObject) => void,
  ) {}

  #addAll(array: readonly unknown[], at: Omit<RecordAt, "entry">): void {
    array.forEach((entry, index) => {
      const id = isJsonObject(entry) ? stringAt(entry, "id") : undefined;
      if (id === undefined || !isJsonObject(entry)) {
        this.notMessages += 1;
        return;
      }
      if (this.byId.has(id)) this.replaced += 1;
      this.byId.set(id, this.keep(entry, { ...at, entry: index }, id));
    });
  }

  /** A whole-document (≤ 0.38) recording. */
  document(document: JsonObject): void {
    this.merge(document);
    const messages = arrayAt(document, "messages");
    if (messages !== undefined) this.#addAll(messages, {});
  }

  /** One JSONL line (1-based `line`): blank (no value), bad, or a record. */
  line(parsed: { readonly value?: JsonObject; readonly bad?: true }, line: number): void {
    if (parsed.bad) {
      this.badLines += 1;
      return;
    }
    const value = parsed.value;
    if (value === undefined) return;
    const rewindTo = stringAt(value, "$rewindTo");
    if (rewindTo !== undefined) {
      const ids = [...this.byId.keys()];
      const at = ids.indexOf(rewindTo);
      const cut = at === -1 ? ids : ids.slice(at);
      for (const id of cut) this.byId.delete(id);
      this.rewound += cut.length;
      return;
    }
    const id = stringAt(value, "id");
    if (id !== undefined) {
      if (this.byId.has(id)) this.replaced += 1;
      this.byId.set(id, this.keep(value, { line }, id));
      return;
    }
    const set = objectAt(value, "$set");
    if (set !== undefined) {
      const messages = arrayAt(set, "messages");
      if (messages !== undefined) {
        this.checkpointed += this.byId.size;
        this.byId.clear();
        this.#addAll(messages, { line, list: "$set.messages" });
      }
      this.merge(set);
      return;
    }
    if (
      typeof ownValue(value, "sessionId") === "string" &&
      typeof ownValue(value, "projectHash") === "string"
    ) {
      this.merge(value);
      const messages = arrayAt(value, "messages");
      if (messages !== undefined) this.#addAll(messages, { line, list: "messages" });
    }
  }
}

export function replay(session: GeminiCliSession): Replayed {
  const metadata: JsonObject = {};
  const replayer = new RecordReplay(
    (record, at) => ({ record, path: recordPath(at) }),
    (source) => assignAll(metadata, source),
  );
  if (session.format === "json") replayer.document(session.document);
  else
    session.lines.forEach((line, index) => {
      replayer.line(line, index + 1);
    });
  return {
    metadata,
    messages: [...replayer.byId.values()],
    badLines: replayer.badLines,
    replaced: replayer.replaced,
    rewound: replayer.rewound,
    checkpointed: replayer.checkpointed,
    notMessages: replayer.notMessages,
  };
}
