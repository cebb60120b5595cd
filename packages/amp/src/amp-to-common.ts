// Amp thread document → Common transcript, per the mapping in
// docs/formats/amp.md: messages 1:1 in array order, sparse timestamps
// inherited, tool names through Amp's tool dialect (amp-read-blocks.ts),
// txcript's lineage key carried. Reads input objects only through own
// properties; what Common cannot hold is reported, never thrown.
import {
  type Block,
  type ConversionOptions,
  isCanonicalTimestamp,
  type Json,
  type JsonObject,
  jsonPath,
  type Lineage,
  type Message,
  type Meta,
  ownValue,
  quote,
  readTimestamp,
  type Transcript,
  TxcriptError,
  type Usage,
  warn,
} from "@txcript/core";
import {
  countOthers,
  describeValue,
  isCount,
  LossTally,
  objectAt,
  type Site,
  stringAt,
  threadSite,
} from "./amp-loss-tally.js";
import { ampLoss as losses } from "./amp-losses.js";
import { readBlock } from "./amp-read-blocks.js";
import { type AmpThread, lineageKey } from "./amp-schema.js";
import { pathFromFileUri } from "./amp-uri.js";

type Path = (string | number)[];

function documentError(message: string, path: Path): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", message, {
    harness: "amp",
    location: { path: jsonPath(path) },
  });
}

/** txcript's lineage key, when it holds a well-formed lineage. */
function readLineage(value: Json | undefined): Lineage | undefined {
  if (value === undefined || value === null || typeof value !== "object" || Array.isArray(value))
    return undefined;
  const harness = stringAt(value, "harness");
  const id = stringAt(value, "id");
  const txcriptVersion = stringAt(value, "txcriptVersion");
  const convertedAt = stringAt(value, "convertedAt");
  if (!harness || !id || !txcriptVersion || convertedAt === undefined) return undefined;
  if (!isCanonicalTimestamp(convertedAt) || Object.keys(value).length !== 4) return undefined;
  return { harness, id, txcriptVersion, convertedAt };
}

const threadKeys = ["id", "created", "title", "env", "messages"] as const;

function readMeta(document: JsonObject, tally: LossTally): Meta {
  const id = ownValue(document, "id");
  if (typeof id !== "string" || id === "") throw documentError("the thread has no id", ["id"]);
  const created = ownValue(document, "created");
  const timestamp = typeof created === "number" ? readTimestamp(created) : undefined;
  if (timestamp === undefined)
    throw documentError("the thread has no valid `created` time (epoch milliseconds)", ["created"]);
  const meta: Meta = { id, timestamp };
  const initial = objectAt(objectAt(document, "env") ?? {}, "initial");
  const trees = initial === undefined ? undefined : ownValue(initial, "trees");
  const tree = Array.isArray(trees) && isObject(trees[0]) ? trees[0] : undefined;
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
  const lineage = readLineage(ownValue(document, lineageKey));
  if (lineage !== undefined) meta.lineage = lineage;
  const others =
    countOthers(document, threadKeys) -
    (lineage !== undefined && Object.hasOwn(document, lineageKey) ? 1 : 0);
  tally.add(
    losses.threadMetadata,
    "thread keys without a Common slot were not carried",
    threadSite,
    others,
  );
  return meta;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const cacheKeys = ["cacheReadInputTokens", "cacheCreationInputTokens"] as const;

/** The token counts of an assistant turn's usage; reports counts it cannot carry. */
function readUsage(usage: JsonObject, site: Site, tally: LossTally): Usage | undefined {
  const input = ownValue(usage, "inputTokens");
  const output = ownValue(usage, "outputTokens");
  if (!isCount(input) || !isCount(output)) {
    // A usage with only a model and a time holds no counts to lose.
    if (input !== undefined || output !== undefined)
      tally.add(
        losses.incompleteUsage,
        "a usage without both token counts was not carried",
        site,
        1,
        ["usage"],
      );
    return undefined;
  }
  const counts: number[] = [];
  for (const key of cacheKeys) {
    const value = ownValue(usage, key);
    if (isCount(value)) counts.push(value);
    else {
      if (value !== undefined)
        tally.add(
          losses.inexactCacheCount,
          `a ${key} that is not a token count was read as 0`,
          site,
          1,
          ["usage", key],
        );
      counts.push(0);
    }
  }
  return {
    inputTokens: input,
    outputTokens: output,
    cacheReadInputTokens: counts[0] as number,
    cacheCreationInputTokens: counts[1] as number,
  };
}

const stateSuffix = ["state"] as const;

/** An assistant turn's stop reason from its `state`. */
function readStopReason(message: JsonObject, site: Site, tally: LossTally): string | undefined {
  const state = ownValue(message, "state");
  const type = isObject(state) ? stringAt(state, "type") : undefined;
  if (type === "complete") {
    const reason = stringAt(state as JsonObject, "stopReason");
    return reason === "" ? undefined : reason;
  }
  if (type === "cancelled") return "aborted";
  if (type === "error") return "error";
  tally.add(
    losses.assistantState,
    type === "streaming"
      ? "an unfinished (streaming) assistant turn has no stop reason"
      : `an assistant turn with ${type === undefined ? (state === undefined ? "no" : "a malformed") : `a ${quote(type, 40)}`} state has no stop reason`,
    site,
    1,
    stateSuffix,
  );
  return undefined;
}

/** A message's blocks: an array of blocks, or a string (the API's shorthand for one text block). */
function readContent(message: JsonObject, site: Site, tally: LossTally): Block[] {
  const content = ownValue(message, "content");
  if (typeof content === "string") return [{ type: "text", text: content }];
  const blocks: Block[] = [];
  if (!Array.isArray(content)) {
    tally.add(
      losses.plainContent,
      `a message with ${describeValue(content)} content carries no blocks`,
      site,
    );
    return blocks;
  }
  for (let blockIndex = 0; blockIndex < content.length; blockIndex += 1) {
    site.block = blockIndex;
    const block = readBlock(content[blockIndex] as Json, site, tally);
    if (block !== undefined) blocks.push(block);
  }
  site.block = -1;
  return blocks;
}

const messageKeys = ["role", "content", "meta", "state", "usage"] as const;
const userMetaKeys = ["sentAt"] as const;
const noKeys = [] as const;
const stateKeys = ["type", "stopReason"] as const;
const usageKeys = [
  "model",
  "timestamp",
  "inputTokens",
  "outputTokens",
  "cacheReadInputTokens",
  "cacheCreationInputTokens",
] as const;

/**
 * One message of a thread, read as ampToCommon reads it: its Common form (undefined for a role
 * Common has no place for, reported) and the clock after it (a message without its own time
 * takes the one before). `site.message` is its index.
 */
export function readAmpMessage(
  message: JsonObject,
  site: Site,
  tally: LossTally,
  clock: string,
): { message: Message | undefined; clock: string } {
  site.block = -1;
  const role = ownValue(message, "role");
  if (role !== "user" && role !== "assistant") {
    tally.add(losses.unmodeledRole, `a message with ${describeValue(role)} role was skipped`, site);
    return { message: undefined, clock };
  }
  const blocks = readContent(message, site, tally);
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
    const time = readTimestamp(stamp);
    if (time === undefined) tally.add(losses.invalidTimestamp, "an invalid time was ignored", site);
    else clock = time;
  }
  const converted: Message = { role, content: blocks, timestamp: clock };
  let bookkeeping = countOthers(message, messageKeys);
  if (metaObject !== undefined)
    bookkeeping += countOthers(metaObject, role === "user" ? userMetaKeys : noKeys);
  if (role === "assistant") {
    const model = stringAt(usage, "model");
    if (model !== undefined) converted.model = model;
    const stopReason = readStopReason(message, site, tally);
    if (stopReason !== undefined) converted.stopReason = stopReason;
    const state = objectAt(message, "state");
    if (state !== undefined) bookkeeping += countOthers(state, stateKeys);
    const tokens = usage === undefined ? undefined : readUsage(usage, site, tally);
    if (tokens !== undefined) converted.usage = tokens;
    if (usage !== undefined) bookkeeping += countOthers(usage, usageKeys);
  } else if (usage !== undefined)
    tally.add(losses.userUsage, "a user message's usage was not carried", site, 1, ["usage"]);
  tally.add(losses.messageBookkeeping, "message bookkeeping was not carried", site, bookkeeping);
  return { message: converted, clock };
}

/** The warning for numbers a double cannot hold digit for digit (the first one's path, and how many). */
export function warnInexactNumbers(
  inexact: { path: string; count: number } | undefined,
  options: ConversionOptions | undefined,
): void {
  if (inexact !== undefined)
    warn(
      options,
      losses.inexactNumber,
      "a number JSON cannot hold digit for digit was read as the nearest double",
      inexact.path,
      inexact.count,
    );
}

export { readMeta as readAmpMeta };

/** Amp thread → Common transcript. Throws INVALID_DOCUMENT only for a missing id or created. */
export function ampToCommon(thread: AmpThread, options?: ConversionOptions): Transcript {
  const tally = new LossTally();
  const meta = readMeta(thread.document, tally);
  warnInexactNumbers(thread.source?.inexact, options);
  const messages: Message[] = [];
  let clock = meta.timestamp;
  // One mutable site for the whole walk: the tally reads it at once.
  const site: Site = { message: -1, block: -1 };
  const source = thread.document.messages;
  for (let index = 0; index < source.length; index += 1) {
    site.message = index;
    const read = readAmpMessage(source[index] as JsonObject, site, tally, clock);
    clock = read.clock;
    if (read.message !== undefined) messages.push(read.message);
  }
  const model = messages.find(
    (message) => message.role === "assistant" && message.model !== undefined,
  )?.model;
  if (model !== undefined) meta.model = model;
  tally.flush(options);
  return { meta, messages };
}
