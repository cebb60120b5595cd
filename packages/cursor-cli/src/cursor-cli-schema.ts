// The native body of a Cursor CLI chat as txcript holds it: what a chat's
// store.db says, read out (cursor-cli-database.ts) into one JSON document —
// the decoded `meta` row, what the root node of the blob tree names, and
// the message blobs in tree order. Cursor itself never reads or writes this
// document; it is txcript's rendering of the store (docs/formats/cursor-cli.md).
import {
  isJsonObject,
  type Json,
  type JsonObject,
  ownValue,
  type ParseOptions,
  parseJson,
  TxcriptError,
} from "@txcript/core";

export const harness = "cursor_cli";

import { documentMarker } from "./cursor-cli-sniff.js";

export { documentMarker };

/** One message blob the tree names, in order: its id (the SHA-256 of its bytes) and its JSON. */
export interface CursorCliMessage {
  blobId: string;
  message: JsonObject;
}

export interface CursorCliChat {
  cursorCliChat: 1;
  /** The chat id: the chat directory's name (= meta.agentId in the stores seen). */
  agentId: string;
  /** The decoded `meta` row "0", without the keys in redactedMetaKeys. */
  meta: JsonObject;
  /** Meta keys read and left out on purpose (the blob encryption key). */
  redactedMetaKeys: string[];
  /** meta.latestRootBlobId: the root node the messages were read from ("" for a chat with none). */
  rootBlobId: string;
  /** The root node's field 9 (previous_workspace_uris). */
  workspaceUris: string[];
  /** The root node's field 8 (turns): protobuf turn structures, not decoded. */
  turnBlobIds: string[];
  /** Numbers of the root node's other fields (todos, token details, summary, plan, mode, ...), not decoded. */
  otherRootFields: number[];
  messages: CursorCliMessage[];
  /** Ids the tree names that the blobs table does not hold. */
  missingBlobIds: string[];
  /** Blobs whose bytes do not hash to their id. */
  digestMismatches: string[];
}

function invalid(message: string, path: string, options: ParseOptions): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", message, {
    harness,
    location: { ...(options.file === undefined ? {} : { file: options.file }), path },
    hint: `expected txcript's Cursor CLI chat document: {"${documentMarker}": 1, "agentId", "meta", "messages", ...}`,
  });
}

function stringList(value: Json | undefined, path: string, options: ParseOptions): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string"))
    throw invalid(`${path} is not a list of strings`, path, options);
  return value as string[];
}

/** The document in `text`, checked for the shape above; only TxcriptError escapes. */
export function parseCursorCliChat(text: string, options: ParseOptions = {}): CursorCliChat {
  const value = parseJson(text, { harness, ...options });
  if (!isJsonObject(value)) throw invalid("the document is not a JSON object", "$", options);
  if (ownValue(value, documentMarker) !== 1)
    throw invalid(`$.${documentMarker} is not 1`, `$.${documentMarker}`, options);
  const agentId = ownValue(value, "agentId");
  if (typeof agentId !== "string" || agentId === "")
    throw invalid("$.agentId is not a non-empty string", "$.agentId", options);
  const meta = ownValue(value, "meta");
  if (!isJsonObject(meta)) throw invalid("$.meta is not an object", "$.meta", options);
  if (typeof ownValue(value, "rootBlobId") !== "string")
    throw invalid("$.rootBlobId is not a string", "$.rootBlobId", options);
  for (const key of [
    "redactedMetaKeys",
    "workspaceUris",
    "turnBlobIds",
    "missingBlobIds",
    "digestMismatches",
  ])
    stringList(ownValue(value, key), `$.${key}`, options);
  const others = ownValue(value, "otherRootFields");
  if (!Array.isArray(others) || !others.every((item) => Number.isSafeInteger(item)))
    throw invalid("$.otherRootFields is not a list of field numbers", "$.otherRootFields", options);
  const messages = ownValue(value, "messages");
  if (!Array.isArray(messages)) throw invalid("$.messages is not a list", "$.messages", options);
  messages.forEach((entry, index) => {
    const where = `$.messages[${index}]`;
    if (!isJsonObject(entry)) throw invalid(`${where} is not an object`, where, options);
    if (typeof ownValue(entry, "blobId") !== "string")
      throw invalid(`${where}.blobId is not a string`, `${where}.blobId`, options);
    if (!isJsonObject(ownValue(entry, "message")))
      throw invalid(`${where}.message is not an object`, `${where}.message`, options);
  });
  return value as unknown as CursorCliChat;
}
