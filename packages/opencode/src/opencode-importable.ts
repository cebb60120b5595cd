// What `opencode import` (1.18.33) requires of a file, checked before it
// runs: import decodes the session, then each message and its parts, and
// writes rows as it goes without a transaction, so a file that fails on
// message N leaves the session and messages 1..N-1 behind. Checking first
// means a bad file never reaches the user's database.
import { isJsonObject, type Json, type JsonObject, ownValue } from "@txcript/core";
import type { OpencodeDocument } from "./opencode-schema.js";

/** One problem: the JSON path and what it should be. */
export interface ImportProblem {
  path: string;
  expected: string;
}

type Check = (value: Json | undefined) => boolean;
const text: Check = (value) => typeof value === "string";
const number: Check = (value) => typeof value === "number" && Number.isFinite(value);
const object: Check = (value) => isJsonObject(value);
const prefixed =
  (prefix: string): Check =>
  (value) =>
    typeof value === "string" && value.startsWith(prefix);

const partTypes = new Set([
  "text",
  "reasoning",
  "tool",
  "step-start",
  "step-finish",
  "file",
  "subtask",
  "agent",
  "retry",
  "compaction",
  "snapshot",
  "patch",
]);

class Checker {
  readonly problems: ImportProblem[] = [];

  at(
    object: JsonObject | undefined,
    key: string,
    check: Check,
    path: string,
    expected: string,
  ): Json | undefined {
    const value = object === undefined ? undefined : ownValue(object, key);
    if (!check(value)) this.problems.push({ path: `${path}.${key}`, expected });
    return value;
  }

  tokens(owner: JsonObject, path: string): void {
    const tokens = this.at(owner, "tokens", object, path, "an object of token counts");
    if (!isJsonObject(tokens)) return;
    for (const key of ["input", "output", "reasoning"])
      this.at(tokens, key, number, `${path}.tokens`, "a number");
    const cache = this.at(tokens, "cache", object, `${path}.tokens`, "{read, write}");
    if (isJsonObject(cache))
      for (const key of ["read", "write"])
        this.at(cache, key, number, `${path}.tokens.cache`, "a number");
  }

  part(
    part: JsonObject,
    path: string,
    sessionId: Json | undefined,
    messageId: Json | undefined,
  ): void {
    this.at(part, "id", prefixed("prt"), path, 'a string starting with "prt"');
    if (ownValue(part, "sessionID") !== sessionId)
      this.problems.push({ path: `${path}.sessionID`, expected: "the session's id" });
    if (ownValue(part, "messageID") !== messageId)
      this.problems.push({ path: `${path}.messageID`, expected: "its message's id" });
    const type = ownValue(part, "type");
    if (typeof type !== "string" || !partTypes.has(type)) {
      this.problems.push({ path: `${path}.type`, expected: `one of ${[...partTypes].join(", ")}` });
      return;
    }
    if (type === "text") this.at(part, "text", text, path, "a string");
    if (type === "reasoning") {
      this.at(part, "text", text, path, "a string");
      const time = this.at(part, "time", object, path, "{start, end?}");
      if (isJsonObject(time)) this.at(time, "start", number, `${path}.time`, "epoch ms");
    }
    if (type === "step-finish") {
      this.at(part, "reason", text, path, "a string");
      this.at(part, "cost", number, path, "a number");
      this.tokens(part, path);
    }
    if (type === "tool") this.tool(part, path);
  }

  tool(part: JsonObject, path: string): void {
    this.at(part, "callID", text, path, "a string");
    this.at(part, "tool", text, path, "a string");
    const state = this.at(part, "state", object, path, "a tool state object");
    if (!isJsonObject(state)) return;
    const where = `${path}.state`;
    this.at(state, "input", object, where, "an object");
    const status = ownValue(state, "status");
    if (status === "pending") this.at(state, "raw", text, where, "a string");
    else if (status === "running") this.time(state, where, false);
    else if (status === "completed") {
      this.at(state, "output", text, where, "a string");
      this.at(state, "title", text, where, "a string");
      this.at(state, "metadata", object, where, "an object");
      this.time(state, where, true);
    } else if (status === "error") {
      this.at(state, "error", text, where, "a string");
      this.time(state, where, true);
    } else
      this.problems.push({
        path: `${where}.status`,
        expected: "pending, running, completed or error",
      });
  }

  time(state: JsonObject, path: string, ended: boolean): void {
    const time = this.at(state, "time", object, path, "{start, end}");
    if (!isJsonObject(time)) return;
    this.at(time, "start", number, `${path}.time`, "epoch ms");
    if (ended) this.at(time, "end", number, `${path}.time`, "epoch ms");
  }

  message(info: JsonObject, path: string, sessionId: Json | undefined): void {
    this.at(info, "id", prefixed("msg"), path, 'a string starting with "msg"');
    if (ownValue(info, "sessionID") !== sessionId)
      this.problems.push({ path: `${path}.sessionID`, expected: "the session's id" });
    const time = this.at(info, "time", object, path, "{created}");
    if (isJsonObject(time)) this.at(time, "created", number, `${path}.time`, "epoch ms");
    this.at(info, "agent", text, path, "a string");
    const role = ownValue(info, "role");
    if (role === "user") {
      const model = this.at(info, "model", object, path, "{providerID, modelID}");
      if (isJsonObject(model))
        for (const key of ["providerID", "modelID"])
          this.at(model, key, text, `${path}.model`, "a string");
    } else if (role === "assistant") {
      this.at(info, "parentID", prefixed("msg"), path, 'a string starting with "msg"');
      for (const key of ["modelID", "providerID", "mode"])
        this.at(info, key, text, path, "a string");
      const where = this.at(info, "path", object, path, "{cwd, root}");
      if (isJsonObject(where))
        for (const key of ["cwd", "root"]) this.at(where, key, text, `${path}.path`, "a string");
      this.at(info, "cost", number, path, "a number");
      this.tokens(info, path);
    } else this.problems.push({ path: `${path}.role`, expected: '"user" or "assistant"' });
  }
}

/** Every way `document` would fail `opencode import`'s decode, in file order (empty: importable). */
export function importProblems(document: OpencodeDocument): ImportProblem[] {
  const checker = new Checker();
  const info = document.info;
  const sessionId = checker.at(
    info,
    "id",
    prefixed("ses"),
    "$.info",
    'a string starting with "ses"',
  );
  for (const key of ["slug", "title", "version"]) checker.at(info, key, text, "$.info", "a string");
  const time = checker.at(info, "time", object, "$.info", "{created, updated}");
  if (isJsonObject(time))
    for (const key of ["created", "updated"])
      checker.at(time, key, number, "$.info.time", "epoch ms");
  document.messages.forEach((entry, index) => {
    const path = `$.messages[${index}]`;
    checker.message(entry.info, `${path}.info`, sessionId);
    const messageId = ownValue(entry.info, "id");
    entry.parts.forEach((part, partIndex) => {
      checker.part(part, `${path}.parts[${partIndex}]`, sessionId, messageId);
    });
  });
  return checker.problems;
}
