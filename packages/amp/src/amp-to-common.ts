// Amp thread document → Common transcript, per the mapping in
// docs/formats/amp.md: messages 1:1 in array order, sparse timestamps
// inherited, tool names through Amp's tool dialect. Reads input objects only
// through own properties; what Common cannot hold is reported, never thrown.
import {
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  jsonPath,
  type Loss,
  type Message,
  type Meta,
  ownValue,
  quote,
  type Transcript,
  TxcriptError,
  type Usage,
  warn,
} from "@txcript/core";
import { ampLossList as losses } from "./amp-losses.js";
import type { AmpThread } from "./amp-schema.js";
import { isoTime } from "./amp-time.js";
import { ampToolToCommon } from "./amp-tools.js";
import { pathFromFileUri } from "./amp-uri.js";

type Path = (string | number)[];

/**
 * Where a loss occurred: `messages[message].content[block]` then `suffix`
 * (an index of -1 leaves its part out). Passed as numbers, not as a path
 * array, because only the first occurrence of each code keeps its path: a
 * path built per block would be garbage for every other block.
 */
interface Site {
  message: number;
  block: number;
}

const threadSite: Site = { message: -1, block: -1 };

/** Counts losses while reading and reports each code once, with its first path. */
class LossTally {
  readonly #seen = new Map<string, { loss: Loss; message: string; path: string; count: number }>();
  add(loss: Loss, message: string, site: Site, count = 1, suffix?: readonly string[]): void {
    if (count <= 0) return;
    const known = this.#seen.get(loss.code);
    if (known) {
      known.count += count;
      return;
    }
    const path: Path = [];
    if (site.message >= 0) path.push("messages", site.message);
    if (site.block >= 0) path.push("content", site.block);
    if (suffix !== undefined) path.push(...suffix);
    this.#seen.set(loss.code, { loss, message, path: jsonPath(path), count });
  }
  flush(options: ConversionOptions | undefined): void {
    for (const { loss, message, path, count } of this.#seen.values())
      warn(options, loss, message, path, count);
  }
}

/**
 * An input value as a loss message shows it: a string cut by core's
 * `quote`, a container by its kind only. Never serialized: a value nested
 * 100,000 deep would overflow the stack, and a long one would flood the report.
 */
function describeValue(value: Json | undefined): string {
  if (typeof value === "string") return quote(value, 40);
  if (Array.isArray(value)) return "an array";
  if (value === null || value === undefined) return "no";
  if (typeof value === "object") return "an object";
  return typeof value === "number" ? "a number" : "a boolean";
}

function objectAt(object: JsonObject, key: string): JsonObject | undefined {
  const value = ownValue(object, key);
  return isJsonObject(value) ? value : undefined;
}

function stringAt(object: JsonObject | undefined, key: string): string | undefined {
  const value = object === undefined ? undefined : ownValue(object, key);
  return typeof value === "string" ? value : undefined;
}

function countOthers(object: JsonObject, known: readonly string[]): number {
  let others = 0;
  for (const key of Object.keys(object)) if (!known.includes(key)) others += 1;
  return others;
}

function isCount(value: Json | undefined): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function documentError(message: string, path: Path): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", message, {
    harness: "amp",
    location: { path: jsonPath(path) },
  });
}

function readMeta(document: JsonObject, tally: LossTally): Meta {
  const id = ownValue(document, "id");
  if (typeof id !== "string" || id === "") throw documentError("the thread has no id", ["id"]);
  const timestamp = isoTime(ownValue(document, "created"));
  if (timestamp === undefined || typeof ownValue(document, "created") !== "number")
    throw documentError("the thread has no valid `created` time (epoch milliseconds)", ["created"]);
  const meta: Meta = { id, timestamp };
  const initial = objectAt(objectAt(document, "env") ?? {}, "initial");
  const trees = initial === undefined ? undefined : ownValue(initial, "trees");
  const tree = Array.isArray(trees) && isJsonObject(trees[0]) ? trees[0] : undefined;
  const uri = stringAt(tree, "uri");
  const cwd = uri === undefined ? undefined : pathFromFileUri(uri);
  if (cwd !== undefined) meta.cwd = cwd;
  const ref = stringAt(tree === undefined ? undefined : objectAt(tree, "repository"), "ref");
  if (ref !== undefined) meta.gitBranch = ref.startsWith("refs/heads/") ? ref.slice(11) : ref;
  const title = stringAt(document, "title");
  if (title !== undefined) meta.title = title;
  const version = stringAt(
    initial === undefined ? undefined : objectAt(initial, "platform"),
    "clientVersion",
  );
  if (version !== undefined) meta.cliVersion = version;
  const others = countOthers(document, ["id", "created", "title", "env", "messages"]);
  tally.add(
    losses.threadMetadata,
    "thread keys without a Common slot were not carried",
    threadSite,
    others,
  );
  return meta;
}

function readUsage(usage: JsonObject): Usage | undefined {
  const input = ownValue(usage, "inputTokens");
  const output = ownValue(usage, "outputTokens");
  if (!isCount(input) || !isCount(output)) return undefined;
  const cacheRead = ownValue(usage, "cacheReadInputTokens");
  const cacheCreation = ownValue(usage, "cacheCreationInputTokens");
  return {
    inputTokens: input,
    outputTokens: output,
    cacheReadInputTokens: isCount(cacheRead) ? cacheRead : 0,
    cacheCreationInputTokens: isCount(cacheCreation) ? cacheCreation : 0,
  };
}

function errorText(run: JsonObject, status: string): string {
  const error = ownValue(run, "error");
  if (typeof error === "string") return error;
  const message = isJsonObject(error) ? stringAt(error, "message") : undefined;
  return message ?? stringAt(run, "reason") ?? `tool run ${status}`;
}

const runSuffix = ["run"] as const;
const statusSuffix = ["run", "status"] as const;
const sourcePathSuffix = ["sourcePath"] as const;
const doneRunKeys = ["status", "result"] as const;
const failedRunKeys = ["status", "error", "reason"] as const;
const errorKeys = ["message"] as const;

function readToolResult(block: JsonObject, site: Site, tally: LossTally): Block | undefined {
  const toolUseId = stringAt(block, "toolUseID");
  const run = objectAt(block, "run");
  if (toolUseId === undefined || toolUseId === "" || run === undefined) {
    tally.add(losses.unmodeledBlock, "a tool_result without toolUseID or run was skipped", site);
    return undefined;
  }
  const status = stringAt(run, "status") ?? "unknown";
  if (status === "done") {
    const others = countOthers(run, doneRunKeys);
    if (others > 0)
      tally.add(losses.runDetails, "tool-run bookkeeping was not carried", site, others, runSuffix);
    const result = ownValue(run, "result");
    return {
      type: "tool_result",
      toolUseId,
      content: result === undefined ? null : result,
      isError: false,
    };
  }
  if (status !== "error")
    tally.add(
      losses.statusCollapsed,
      `a ${quote(status, 40)} tool run became an error result`,
      site,
      1,
      statusSuffix,
    );
  const error = objectAt(run, "error");
  const details =
    countOthers(run, failedRunKeys) + (error === undefined ? 0 : countOthers(error, errorKeys));
  tally.add(losses.runDetails, "tool-run bookkeeping was not carried", site, details, runSuffix);
  return { type: "tool_result", toolUseId, content: errorText(run, status), isError: true };
}

const blockKeys: Record<string, readonly string[]> = {
  text: ["type", "text"],
  thinking: ["type", "thinking", "signature", "provider", "openAIReasoning"],
  tool_use: ["type", "id", "name", "input"],
  tool_result: ["type", "toolUseID", "run"],
  image: ["type", "source"],
};

function readBlock(block: Json, site: Site, tally: LossTally): Block | undefined {
  const type = isJsonObject(block) ? stringAt(block, "type") : undefined;
  if (!isJsonObject(block) || type === undefined || !Object.hasOwn(blockKeys, type)) {
    tally.add(
      losses.unmodeledBlock,
      `a ${type === undefined ? "malformed" : quote(type, 40)} block has no Common counterpart`,
      site,
    );
    return undefined;
  }
  const known = blockKeys[type] ?? [];
  if (type !== "image")
    tally.add(
      losses.messageBookkeeping,
      "block bookkeeping was not carried",
      site,
      countOthers(block, known),
    );
  switch (type) {
    case "text": {
      const text = stringAt(block, "text");
      if (text !== undefined) return { type: "text", text };
      break;
    }
    case "thinking": {
      const text = stringAt(block, "thinking") ?? stringAt(block, "text");
      if (text === undefined) break;
      const thinking: Block = { type: "thinking", text };
      const signature = stringAt(block, "signature");
      if (signature !== undefined) thinking.signature = signature;
      const reasoning = objectAt(block, "openAIReasoning");
      const encrypted = stringAt(reasoning, "encryptedContent");
      if (encrypted !== undefined) thinking.encrypted = encrypted;
      const provider = stringAt(block, "provider");
      if (provider !== undefined) thinking.provider = provider;
      if (reasoning !== undefined)
        tally.add(
          losses.messageBookkeeping,
          "block bookkeeping was not carried",
          site,
          countOthers(reasoning, ["encryptedContent"]),
        );
      return thinking;
    }
    case "tool_use": {
      const id = stringAt(block, "id");
      const name = stringAt(block, "name");
      if (id === undefined || id === "" || name === undefined) break;
      const input = ownValue(block, "input");
      return {
        type: "tool_use",
        id,
        tool: ampToolToCommon(name, input === undefined ? {} : input),
      };
    }
    case "tool_result":
      return readToolResult(block, site, tally);
    case "image": {
      const source = objectAt(block, "source");
      const mediaType = stringAt(source, "mediaType");
      const data = stringAt(source, "data");
      if (
        source === undefined ||
        stringAt(source, "type") !== "base64" ||
        !mediaType ||
        data === undefined
      )
        break;
      if (Object.hasOwn(block, "sourcePath"))
        tally.add(
          losses.imageSourcePath,
          "an image's sourcePath was not carried",
          site,
          1,
          sourcePathSuffix,
        );
      const extra =
        countOthers(block, ["type", "source", "sourcePath"]) +
        countOthers(source, ["type", "mediaType", "data"]);
      tally.add(losses.messageBookkeeping, "block bookkeeping was not carried", site, extra);
      return { type: "image", source: { type: "base64", mediaType, data } };
    }
  }
  tally.add(
    losses.unmodeledBlock,
    `a ${quote(type, 40)} block without its required fields was skipped`,
    site,
  );
  return undefined;
}

function readStopReason(state: JsonObject | undefined): string | undefined {
  const type = stringAt(state, "type");
  if (type === "cancelled") return "aborted";
  if (type !== "complete") return undefined;
  const reason = stringAt(state, "stopReason");
  return reason === "" ? undefined : reason;
}

const messageKeys = ["role", "content", "meta", "state", "usage"] as const;
const userMetaKeys = ["sentAt"] as const;
const noKeys = [] as const;
const usageKeys = [
  "model",
  "timestamp",
  "inputTokens",
  "outputTokens",
  "cacheReadInputTokens",
  "cacheCreationInputTokens",
] as const;

/** Amp thread → Common transcript. Throws INVALID_DOCUMENT only for a missing id or created. */
export function ampToCommon(thread: AmpThread, options?: ConversionOptions): Transcript {
  const tally = new LossTally();
  const meta = readMeta(thread.document, tally);
  const inexact = thread.source?.inexact;
  if (inexact !== undefined)
    warn(
      options,
      losses.inexactNumber,
      "a number JSON cannot hold digit for digit was read as the nearest double",
      inexact.path,
      inexact.count,
    );
  const messages: Message[] = [];
  let clock = meta.timestamp;
  // One mutable site for the whole walk: the tally reads it at once.
  const site: Site = { message: -1, block: -1 };
  const source = thread.document.messages;
  for (let index = 0; index < source.length; index += 1) {
    const message = source[index] as JsonObject;
    site.message = index;
    site.block = -1;
    const role = ownValue(message, "role");
    if (role !== "user" && role !== "assistant") {
      tally.add(
        losses.unmodeledRole,
        `a message with ${describeValue(role)} role was skipped`,
        site,
      );
      continue;
    }
    const content = ownValue(message, "content");
    const blocks: Block[] = [];
    if (Array.isArray(content))
      for (let blockIndex = 0; blockIndex < content.length; blockIndex += 1) {
        site.block = blockIndex;
        const block = readBlock(content[blockIndex] as Json, site, tally);
        if (block !== undefined) blocks.push(block);
      }
    site.block = -1;
    const metaObject = objectAt(message, "meta");
    const usage = objectAt(message, "usage");
    const stamp =
      role === "user"
        ? metaObject === undefined
          ? undefined
          : ownValue(metaObject, "sentAt")
        : usage === undefined
          ? undefined
          : ownValue(usage, "timestamp");
    if (stamp !== undefined) {
      const time = isoTime(stamp);
      if (time === undefined)
        tally.add(losses.invalidTimestamp, "an invalid time was ignored", site);
      else clock = time;
    }
    const converted: Message = { role, content: blocks, timestamp: clock };
    let bookkeeping = countOthers(message, messageKeys);
    if (metaObject !== undefined)
      bookkeeping += countOthers(metaObject, role === "user" ? userMetaKeys : noKeys);
    if (role === "assistant") {
      const model = stringAt(usage, "model");
      if (model !== undefined) converted.model = model;
      const stopReason = readStopReason(objectAt(message, "state"));
      if (stopReason !== undefined) converted.stopReason = stopReason;
      const tokens = usage === undefined ? undefined : readUsage(usage);
      if (tokens !== undefined) converted.usage = tokens;
      if (usage !== undefined) bookkeeping += countOthers(usage, usageKeys);
    }
    tally.add(losses.messageBookkeeping, "message bookkeeping was not carried", site, bookkeeping);
    messages.push(converted);
  }
  const model = messages.find(
    (message) => message.role === "assistant" && message.model !== undefined,
  )?.model;
  if (model !== undefined) meta.model = model;
  tally.flush(options);
  return { meta, messages };
}
