// Replays a recording's records into the conversation Gemini CLI would load,
// with the same rules as its loader (chatRecordingService
// loadConversationRecord, 0.61.0): metadata lines and `$set` merge into the
// metadata, a message record replaces an earlier one with the same id in its
// place, a `$set.messages` array is a full checkpoint, `$rewindTo` cuts from
// that message on (everything when the id is unknown), bad lines are skipped.
// It counts what it dropped so toCommon can name each loss.
import {
  arrayAt,
  isJsonObject,
  type JsonObject,
  objectAt,
  ownValue,
  stringAt,
} from "@txcript/core";
import type { GeminiCliSession } from "./gemini-cli-schema.js";

export interface Replayed {
  metadata: JsonObject;
  /** Message records in conversation order, each with the JSON path it came from. */
  messages: { record: JsonObject; path: string }[];
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

function assignAll(target: JsonObject, source: JsonObject): void {
  for (const key of Object.keys(source)) {
    Object.defineProperty(target, key, {
      value: source[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

export function replay(session: GeminiCliSession): Replayed {
  const result: Replayed = {
    metadata: {},
    messages: [],
    badLines: 0,
    replaced: 0,
    rewound: 0,
    checkpointed: 0,
    notMessages: 0,
  };
  const byId = new Map<string, { record: JsonObject; path: string }>();
  const addAll = (array: readonly unknown[], path: string) => {
    array.forEach((entry, index) => {
      const id = isJsonObject(entry) ? stringAt(entry, "id") : undefined;
      if (id === undefined || !isJsonObject(entry)) {
        result.notMessages += 1;
        return;
      }
      if (byId.has(id)) result.replaced += 1;
      byId.set(id, { record: entry, path: `${path}[${index}]` });
    });
  };
  if (session.format === "json") {
    assignAll(result.metadata, session.document);
    const messages = arrayAt(session.document, "messages");
    if (messages !== undefined) addAll(messages, "$.messages");
  } else {
    session.lines.forEach((line, index) => {
      const path = `line ${index + 1}`;
      if (line.bad) {
        result.badLines += 1;
        return;
      }
      const value = line.value;
      if (value === undefined) return;
      const rewindTo = stringAt(value, "$rewindTo");
      if (rewindTo !== undefined) {
        const ids = [...byId.keys()];
        const at = ids.indexOf(rewindTo);
        const cut = at === -1 ? ids : ids.slice(at);
        for (const id of cut) byId.delete(id);
        result.rewound += cut.length;
        return;
      }
      const id = stringAt(value, "id");
      if (id !== undefined) {
        if (byId.has(id)) result.replaced += 1;
        byId.set(id, { record: value, path });
        return;
      }
      const set = objectAt(value, "$set");
      if (set !== undefined) {
        const messages = arrayAt(set, "messages");
        if (messages !== undefined) {
          result.checkpointed += byId.size;
          byId.clear();
          addAll(messages, `${path} $set.messages`);
        }
        assignAll(result.metadata, set);
        return;
      }
      if (
        typeof ownValue(value, "sessionId") === "string" &&
        typeof ownValue(value, "projectHash") === "string"
      ) {
        assignAll(result.metadata, value);
        const messages = arrayAt(value, "messages");
        if (messages !== undefined) addAll(messages, `${path} messages`);
      }
    });
  }
  result.messages = [...byId.values()];
  return result;
}
