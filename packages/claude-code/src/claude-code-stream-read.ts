// A Claude Code session read line by line (core's stream.ts), with the
// meta, messages and warnings of claudeCodeToCommon.
//
// Pass one parses every line (so a bad line is refused before anything is
// handed out) and keeps, per line, a few int32 for choosing the conversation
// (claude-code-stream-select.ts: the same choice as selectConversations),
// the meta's first values, the title lines, and the left-out lines' tally.
// A short second pass, over the head as a rule, finds the model of the
// first assistant message; it stops at the last line pass one saw name a
// model, and is skipped when none did (a session txcript wrote from a
// source without models would otherwise be read a third time whole). The
// last pass reads the chosen lines through the same ConversationReader and
// hands out each message once no later line can change it: its split parts
// are all read (the last line with its message id, known from pass one;
// the reader then forgets that id), and a compaction marker has had its
// chance at a summary line.
//
// Inline subagent (sidechain) lines, as Claude Code 1.0.x and txcript's
// own writer put them in the main file, are held from pass one (each
// subagent's chain is picked and read as the whole path does, with
// selectSidechains and readSubagents) together with the few main lines
// that link a subagent to its call; the subagents are handed out after the
// main conversation's messages. So memory grows with the subagents' lines,
// not the file.
//
// A replay in the same conversion (core's StreamMemo: a writer that looks
// ahead reads the parts again) reuses pass one: what pass one and the
// model's pass found (the meta, the chosen lines, the message ids' last
// lines, the subagents' lines, the counts of left-out lines) is kept in
// the memo, and the replay reads the lines once, in its last pass. Each
// read still has its own tally (pass one's counts added to it) and meta.
import {
  type CodecOptions,
  isJsonObject,
  type JsonObject,
  type Lineage,
  type LineSource,
  LossTally,
  lineageOf,
  type Message,
  type Meta,
  ownValue,
  readTimestamp,
  type StreamPart,
  type StringIds,
  scanOnce,
  warn,
} from "@txcript/core";
import { claudeCodeLoss } from "./claude-code-losses.js";
import { ConversationReader, epoch } from "./claude-code-read.js";
import { type ClaudeCodeLine, objectAt, parseSessionLine, stringAt } from "./claude-code-schema.js";
import { CompactLines } from "./claude-code-stream-select.js";
import { missingSubagentMessage, readsAloneKey } from "./claude-code-subagent-files.js";
import { readSubagents, spawningTools } from "./claude-code-subagents-read.js";
import { type IndexedLine, type Sidechain, selectSidechains } from "./claude-code-thread.js";
import { lineageKey } from "./claude-code-written.js";

function fileOf(options: CodecOptions): { file?: string } {
  return typeof options.file === "string" ? { file: options.file } : {};
}

/** What pass one keeps of the meta: the first value of each key, the title lines, the lineage. */
class MetaFacts {
  readonly firsts = new Map<string, string>();
  timestamp: string | undefined;
  custom: string | undefined;
  ai: string | undefined;
  readonly summaries: { leaf: string; summary: string | undefined }[] = [];
  lineage: Lineage | undefined;
  sawLineage = false;

  read(value: JsonObject): void {
    for (const key of ["sessionId", "cwd", "gitBranch", "version"])
      if (!this.firsts.has(key)) {
        const found = stringAt(value, key);
        if (found !== undefined) this.firsts.set(key, found);
      }
    this.timestamp ??= readTimestamp(ownValue(value, "timestamp"));
    const type = stringAt(value, "type");
    if (type === "custom-title") this.custom = stringAt(value, "customTitle") ?? this.custom;
    else if (type === "ai-title") this.ai = stringAt(value, "aiTitle") ?? this.ai;
    else if (type === "summary") {
      const leaf = stringAt(value, "leafUuid");
      if (leaf !== undefined) this.summaries.push({ leaf, summary: stringAt(value, "summary") });
    }
    if (!this.sawLineage && Object.hasOwn(value, lineageKey)) {
      this.sawLineage = true;
      this.lineage = lineageOf(ownValue(value, lineageKey));
    }
  }

  /** The title as readTitle has it: custom-title, else the last summary of a leaf here, else ai-title. */
  title(uuids: ReadonlySet<string>): string | undefined {
    let summary: string | undefined;
    for (const entry of this.summaries)
      if (uuids.has(entry.leaf)) summary = entry.summary ?? summary;
    return this.custom ?? summary ?? this.ai;
  }
}

/**
 * Whether a main line may link a subagent to its call (what readSubagents reads of the main
 * conversation): an assistant line calling Task/Agent, or a user line whose result names an agentId.
 */
function linksSubagent(value: JsonObject): boolean {
  const message = objectAt(value, "message");
  const content = message === undefined ? undefined : ownValue(message, "content");
  if (!Array.isArray(content)) return false;
  const type = stringAt(value, "type");
  if (type === "assistant")
    return content.some((block) => {
      if (!isJsonObject(block) || ownValue(block, "type") !== "tool_use") return false;
      const name = stringAt(block, "name");
      return name !== undefined && spawningTools.has(name);
    });
  if (type !== "user") return false;
  const result = objectAt(value, "toolUseResult");
  return result !== undefined && stringAt(result, "agentId") !== undefined;
}

/** The parsed lines (0-based index, value); with `chosen`, only the lines it marks (pass one parsed them all). */
function* parsedLines(
  lines: LineSource,
  options: CodecOptions,
  chosen?: Uint8Array,
): Generator<[number, JsonObject]> {
  const file = fileOf(options);
  let index = -1;
  for (const text of lines()) {
    index += 1;
    if (chosen !== undefined && chosen[index] !== 1) continue;
    const line: ClaudeCodeLine = parseSessionLine(text, index + 1, file);
    if (line.value !== undefined) yield [index, line.value];
  }
}

/**
 * Whether an assistant line names a model ConversationReader keeps (only
 * such a line can give a message its model).
 */
function namesModel(value: JsonObject): boolean {
  if (stringAt(value, "type") !== "assistant") return false;
  const model = stringAt(objectAt(value, "message"), "model");
  return model !== undefined && model !== "" && model !== "<synthetic>";
}

/**
 * The model of the first assistant message of the chosen lines, read from
 * the head on, and no further than `lastModelLine` (0-based; pass one's last
 * line that names a model, -1 for none): past it no line can bring one, so
 * a session without models is not read a second time.
 */
function firstModel(
  lines: LineSource,
  options: CodecOptions,
  chosen: Uint8Array,
  lastModelLine: number,
): string | undefined {
  if (lastModelLine < 0) return undefined;
  const reader = new ConversationReader(new LossTally());
  for (const [index, value] of parsedLines(lines, options, chosen)) {
    if (index > lastModelLine) return undefined;
    reader.line(value);
    const model = reader.messages.find(
      (message) => message.role === "assistant" && message.model !== undefined,
    )?.model;
    if (model !== undefined) return model;
    // Only a new message can bring a model: the ones read so far are not needed again.
    reader.messages.length = 0;
  }
  return undefined;
}

/** Where pass one's findings are kept in a conversion's StreamMemo. */
const scanMemoKey = "claude_code.scan";

/**
 * What pass one and firstModel find, all the last pass needs of them. They
 * depend on nothing but the lines and the options, and nothing the last
 * pass or readSubagents does changes them: the lines are only read (the
 * subagents' messages share their values with the held sidechain lines, as
 * a whole transcript's replay shares its messages), `chosen`,
 * `lastOfMessage` and `messageIds` are only looked up.
 */
interface Scan {
  /** Each read's own (scanOnce). */
  meta: Meta;
  /** 1: a line of the conversation (by file index). */
  chosen: Uint8Array;
  lastOfMessage: Int32Array;
  messageIds: StringIds;
  sidechains: Sidechain[];
  /** The main lines that may link a subagent to its call (all of them: filtered by `chosen` per read). */
  linking: IndexedLine[];
  /** The left-out lines, duplicates and branches pass one counted (never flushed: added to each read's tally). */
  losses: LossTally;
  missingSessionId: boolean;
  /** As missingSubagents, for a file read alone: agentIds a Task result names, and those held. */
  named: Set<string>;
  heldAgents: Set<string>;
}

/** Pass one (and firstModel): what the last pass needs to choose, merge and hand out. */
function scan(lines: LineSource, options: CodecOptions): Scan {
  const facts = new MetaFacts();
  let compact: CompactLines | undefined = new CompactLines();
  let count = 0;
  // Sidechain lines with a uuid, and main lines that may link a subagent, by file index.
  const held = new Map<number, JsonObject>();
  const linking: IndexedLine[] = [];
  // As missingSubagents: agentIds a main line's Task result names, and those sidechain lines hold.
  const lone = options[readsAloneKey] === true;
  const named = new Set<string>();
  const heldAgents = new Set<string>();
  let lastModelLine = -1;
  for (const [index, value] of parsedLines(lines, options)) {
    facts.read(value);
    if (namesModel(value)) lastModelLine = index;
    compact.add(index, value);
    count = index + 1;
    if (lone) noteAgents(value, named, heldAgents);
    if (stringAt(value, "uuid") !== undefined && ownValue(value, "isSidechain") === true)
      held.set(index, value);
    else if (linksSubagent(value)) linking.push({ index, value });
  }
  const losses = new LossTally();
  let sidechains: Sidechain[] = [];
  let selected: ReturnType<CompactLines["select"]> | undefined = compact.select(
    losses,
    (indices) => {
      const sideLines: IndexedLine[] = [];
      const byUuid = new Map<string, IndexedLine>();
      for (const index of indices) {
        const line = { index, value: held.get(index) as JsonObject };
        sideLines.push(line);
        byUuid.set(stringAt(line.value, "uuid") as string, line);
      }
      sidechains = selectSidechains(sideLines, byUuid);
      const used = new Set<number>();
      let branches = 0;
      for (const sidechain of sidechains) {
        for (const line of sidechain.thread.lines) used.add(line.index);
        branches += sidechain.thread.branchCount;
      }
      return { used, branches };
    },
  );
  // The held lines no sidechain chose, and a file of sidechain lines only (its own main conversation).
  held.clear();
  losses.add(claudeCodeLoss.duplicateLine, "dropped lines repeating a uuid", selected.duplicates);
  losses.add(claudeCodeLoss.branch, "left out lines of abandoned branches", selected.branches);
  const chosen = new Uint8Array(count);
  for (const index of selected.lines) chosen[index] = 1;
  const { lastOfMessage } = selected;
  // Of pass one only the message ids are needed from here on (which line last carries each).
  const { messageIds } = compact;
  compact = undefined;
  const found = new Set<string>();
  for (const entry of facts.summaries) if (selected.hasUuid(entry.leaf)) found.add(entry.leaf);
  selected = undefined;

  const sessionId = facts.firsts.get("sessionId");
  const meta: Meta = {
    id: sessionId !== undefined && sessionId !== "" ? sessionId : "unknown-session",
    timestamp: facts.timestamp ?? epoch,
  };
  const cwd = facts.firsts.get("cwd");
  if (cwd !== undefined) meta.cwd = cwd;
  const gitBranch = facts.firsts.get("gitBranch");
  if (gitBranch !== undefined && gitBranch !== "") meta.gitBranch = gitBranch;
  const title = facts.title(found);
  if (title !== undefined) meta.title = title;
  const version = facts.firsts.get("version");
  if (version !== undefined) meta.cliVersion = version;
  const model = firstModel(lines, options, chosen, lastModelLine);
  if (model !== undefined) meta.model = model;
  if (facts.lineage !== undefined) meta.lineage = facts.lineage;
  return {
    meta,
    chosen,
    lastOfMessage,
    messageIds,
    sidechains,
    linking,
    losses,
    missingSessionId: sessionId === undefined || sessionId === "",
    named,
    heldAgents,
  };
}

/** The parts of a Claude Code session read line by line; the same as claudeCodeToCommon's. */
export function* claudeCodeReadStream(
  lines: LineSource,
  options: CodecOptions,
): Generator<StreamPart> {
  // Pass one depends only on the lines and the options: a replay in the same conversion reuses
  // it. What is kept is what one read holds anyway until its end (the last pass needs all of it);
  // the memo holds it for the conversion, and reads that overlap share it instead of each
  // holding its own.
  const found = scanOnce(options, scanMemoKey, () => scan(lines, options));
  const { chosen, lastOfMessage, messageIds, sidechains, linking, named, heldAgents } = found;
  const tally = new LossTally();
  found.losses.addTo(tally);
  yield { kind: "meta", meta: found.meta, subagents: sidechains.length > 0 };

  const reader = new ConversationReader(tally);
  // For each message not yet handed out: the index of the last line that can change it.
  const finalAt: number[] = [];
  for (const [index, value] of parsedLines(lines, options, chosen)) {
    const before = reader.messages.length;
    reader.line(value);
    // The last line with its message id: no later part can merge into that message.
    const part = stringAt(value, "type") === "assistant" ? objectAt(value, "message") : undefined;
    const partId = part === undefined ? undefined : stringAt(part, "id");
    if (partId !== undefined && partId !== "") {
      const known = messageIds.find(partId);
      if (known !== -1 && lastOfMessage[known] === index) reader.forget(partId);
    }
    if (reader.messages.length > before) {
      const message = objectAt(value, "message");
      const id = message === undefined ? undefined : stringAt(message, "id");
      const known = id === undefined || id === "" ? -1 : messageIds.find(id);
      const last =
        stringAt(value, "type") === "assistant" && known !== -1
          ? Math.max(index, lastOfMessage[known] as number)
          : index;
      for (let added = before; added < reader.messages.length; added += 1) finalAt.push(last);
    }
    let ready = 0;
    const open = reader.openCompaction;
    while (
      ready < reader.messages.length &&
      (finalAt[ready] as number) <= index &&
      !(open !== undefined && (reader.messages[ready] as Message).content[0] === open)
    )
      ready += 1;
    if (ready > 0) {
      finalAt.splice(0, ready);
      for (const message of reader.messages.splice(0, ready)) {
        yield { kind: "message", message };
      }
    }
  }
  for (const message of reader.messages.splice(0)) yield { kind: "message", message };
  if (sidechains.length > 0) {
    const mainLinks = linking.filter((line) => chosen[line.index] === 1);
    for (const subagent of readSubagents(mainLinks, sidechains, [], tally))
      yield { kind: "subagent", subagent };
  }
  if (found.missingSessionId)
    tally.add(claudeCodeLoss.missingSessionId, "the session names no sessionId");
  tally.flush(options);
  // What loadFile names of a lone file (reportMissingSubagents), named here as it is there.
  for (const agentId of named)
    if (!heldAgents.has(agentId))
      warn(
        options,
        claudeCodeLoss.subagentFileMissing,
        missingSubagentMessage(agentId, options.file),
      );
}

/** A line's part in missingSubagents: a sidechain line's own agentId, or the agentId a Task result names. */
function noteAgents(value: JsonObject, named: Set<string>, held: Set<string>): void {
  const own = stringAt(value, "agentId");
  if (value.isSidechain === true && own !== undefined) {
    held.add(own);
    return;
  }
  const agentId = stringAt(objectAt(value, "toolUseResult"), "agentId");
  if (agentId !== undefined) named.add(agentId);
}
