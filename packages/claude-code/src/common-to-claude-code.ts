// Common → Claude Code session lines, in one pass: each conversation's
// messages as the write plan yields them (claude-code-write-plan, where
// every loss happens and is reported once) are printed as they come, so no
// normalized copy of the transcript outlives its own line (and a caller may
// write each line out before the next is made: commonToClaudeCodeLines). A
// leading system line carries the session's start (and lineage), one line
// per message follows on one parentUuid chain (a compaction marker is a
// compact_boundary line and its summary line), each subagent's lines
// follow as a sidechain of their own, and the title comes last.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type Message,
  type Meta,
  type Subagent,
  stringifyJson,
  type Transcript,
  warn,
} from "@txcript/core";
import { commonBlockToAnthropic, commonUsageToAnthropic } from "@txcript/core/anthropic";
import { commandMarkup, commandOutputMarkup } from "./claude-code-commands.js";
import { claudeCodeLoss } from "./claude-code-losses.js";
import { claudeSessionId } from "./claude-code-paths.js";
import {
  type ClaudeCodeLine,
  type ClaudeCodeSession,
  harness,
  writtenLine,
} from "./claude-code-schema.js";
import { claudeUuid, claudeUuidHex } from "./claude-code-uuid.js";
import { type ConversationPlan, planConversation } from "./claude-code-write-plan.js";
import { isCommandCall, isMarker, writtenMeta } from "./claude-code-write-rules.js";
import { contextKey, importNotice, lineageKey, subagentKey } from "./claude-code-written.js";

export { importNotice } from "./claude-code-written.js";

export interface ClaudeCodeWriteOptions extends ConversionOptions {}

// The objects below are literals with the writer's own keys only (values
// from the transcript are placed, never used as keys), and they exist just
// long enough to be printed. A key whose value is undefined is left out by
// JSON.stringify, which is how an optional key (cwd, version, model, usage)
// is omitted; nothing else ever sees these objects.

function contentToClaude(content: readonly Block[]): Json[] {
  const blocks: Json[] = [];
  for (const block of content) {
    const written = commonBlockToAnthropic(block);
    if (written !== undefined) blocks.push(written);
  }
  return blocks;
}

function userContent(message: Message, plan: ConversationPlan): Json {
  const block = message.content[0] as Block;
  if (isCommandCall(message) && block.type === "tool_use") {
    const input = block.tool.input as { command: string; args?: string };
    return commandMarkup(input.command, input.args);
  }
  if (plan.isOutput(message) && block.type === "tool_result")
    return commandOutputMarkup(block.content as string, block.isError);
  // Always a block array: Claude Code reads markup only from string content,
  // so a user's text can never be mistaken for a slash command.
  return contentToClaude(message.content);
}

function print(value: object): string {
  return stringifyJson(value, undefined, harness);
}

/** What every line of one conversation shares. */
interface Scope {
  readonly sessionId: string;
  readonly cwd: string | undefined;
  readonly version: string | undefined;
  readonly gitBranch: string;
  /** The subagent's agentId (sidechain lines), or undefined for the main conversation. */
  readonly agentId: string | undefined;
  /** Prefix of the names uuids and message ids are derived from. */
  readonly prefix: string;
}

/** The agentId a subagent's lines carry: its id when Claude Code could name a file by it, else a derived one. */
const safeAgentId = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * The lines of one conversation after `first` (the uuid of the line they
 * hang off), one text at a time. Returns the first assistant model.
 */
function* conversationLines(
  messages: Iterable<Message>,
  scope: Scope,
  first: string,
  options: ConversionOptions | undefined,
  replay?: () => Iterable<Message>,
  userToolCalls = true,
): Generator<string, string | undefined> {
  const plan = planConversation(messages, options, replay, userToolCalls);
  const { sessionId, cwd, version, gitBranch, agentId, prefix } = scope;
  const sidechain = agentId !== undefined;
  let ordinal = 1;
  const nextUuid = () => claudeUuid(`${prefix}line:${ordinal++}`);
  let parent = first;
  let index = 0;
  let firstModel: string | undefined;
  for (const message of plan.messages) {
    const uuid = nextUuid();
    if (isMarker(message)) {
      const block = message.content[0] as Block & { type: "compaction" };
      yield print({
        parentUuid: null,
        logicalParentUuid: parent,
        isSidechain: sidechain,
        userType: "external",
        cwd,
        sessionId,
        version,
        gitBranch,
        agentId,
        type: "system",
        subtype: "compact_boundary",
        content: "Conversation compacted",
        isMeta: false,
        timestamp: message.timestamp,
        uuid,
        level: "info",
        compactMetadata: { trigger: block.trigger, preTokens: block.preTokens },
      });
      const summaryUuid = nextUuid();
      yield print({
        parentUuid: uuid,
        isSidechain: sidechain,
        userType: "external",
        cwd,
        sessionId,
        version,
        gitBranch,
        agentId,
        type: "user",
        message: { role: "user", content: block.summary },
        isVisibleInTranscriptOnly: true,
        isCompactSummary: true,
        uuid: summaryUuid,
        timestamp: message.timestamp,
      });
      parent = summaryUuid;
    } else if (message.role === "user") {
      yield print({
        parentUuid: parent,
        isSidechain: sidechain,
        userType: "external",
        cwd,
        sessionId,
        version,
        gitBranch,
        agentId,
        type: "user",
        message: { role: "user", content: userContent(message, plan) },
        isMeta: message.context === undefined ? undefined : true,
        [contextKey]: message.context,
        uuid,
        timestamp: message.timestamp,
      });
      parent = uuid;
    } else {
      firstModel ??= message.model;
      yield print({
        parentUuid: parent,
        isSidechain: sidechain,
        userType: "external",
        cwd,
        sessionId,
        version,
        gitBranch,
        agentId,
        message: {
          model: message.model,
          id: `msg_txcript${claudeUuidHex(`${prefix}message:${index}`)}`,
          type: "message",
          role: "assistant",
          content: contentToClaude(message.content),
          stop_reason: message.stopReason ?? null,
          stop_sequence: null,
          usage: message.usage === undefined ? undefined : commonUsageToAnthropic(message.usage),
        },
        requestId: `req_txcript${claudeUuidHex(`${prefix}request:${index}`)}`,
        type: "assistant",
        uuid,
        timestamp: message.timestamp,
      });
      parent = uuid;
    }
    index += 1;
  }
  return firstModel;
}

interface SubagentWalk {
  readonly used: Set<string>;
  readonly agentIds: Set<string>;
  ordinal: number;
}

/** Each subagent's lines (a notice line carrying its Common fields, then its messages), parents first. */
function* subagentLines(
  subagents: readonly Subagent[],
  parent: string | undefined,
  base: Omit<Scope, "agentId" | "prefix">,
  meta: Meta,
  walk: SubagentWalk,
  options: ConversionOptions | undefined,
): Generator<string> {
  for (const subagent of subagents) {
    walk.ordinal += 1;
    const n = walk.ordinal;
    let id = subagent.id;
    if (walk.used.has(id)) {
      let k = 2;
      while (walk.used.has(`${subagent.id}-${k}`)) k += 1;
      id = `${subagent.id}-${k}`;
      warn(options, claudeCodeLoss.subagentId, `subagent id ${subagent.id} became ${id}`);
    }
    walk.used.add(id);
    let agentId =
      safeAgentId.test(id) && !walk.agentIds.has(id)
        ? id
        : `a${claudeUuidHex(`${base.sessionId}:agent:${n}`).slice(0, 16)}`;
    while (walk.agentIds.has(agentId)) agentId = `${agentId}x`;
    walk.agentIds.add(agentId);
    const scope: Scope = { ...base, agentId, prefix: `${base.sessionId}:agent:${n}:` };
    const first = claudeUuid(`${scope.prefix}line:0`);
    yield print({
      parentUuid: null,
      isSidechain: true,
      userType: "external",
      cwd: base.cwd,
      sessionId: base.sessionId,
      version: base.version,
      gitBranch: base.gitBranch,
      agentId,
      type: "system",
      subtype: "informational",
      content: importNotice,
      isMeta: false,
      timestamp: subagent.messages[0]?.timestamp ?? meta.timestamp,
      uuid: first,
      level: "info",
      [subagentKey]: {
        id,
        toolUseId: subagent.toolUseId,
        title: subagent.title,
        agentType: subagent.agentType,
        model: subagent.model,
        parent,
      },
    });
    yield* conversationLines(subagent.messages, scope, first, options);
    if (subagent.subagents !== undefined)
      yield* subagentLines(subagent.subagents, id, base, meta, walk, options);
  }
}

/**
 * The lines fromCommon writes, one text at a time (without its newline; the
 * session ends with one after the last), each printed when asked for: a
 * caller writing them straight to a file never holds the whole session.
 * Losses are reported as the messages are reached, meta's after the last.
 */
export function commonToClaudeCodeLines(
  transcript: Transcript,
  options?: ClaudeCodeWriteOptions,
): Generator<string> {
  return claudeCodeLinesOf(
    {
      meta: transcript.meta,
      messages: transcript.messages,
      replay: () => transcript.messages,
      subagents: () => transcript.subagents,
    },
    options,
  );
}

/**
 * What a session is written from: the meta, the main conversation's
 * messages (walked once), `replay()` (them again from the start, for the
 * plan) and, once the messages are written, the subagents.
 */
export interface ClaudeCodeLineSource {
  meta: Meta;
  messages: Iterable<Message>;
  replay: () => Iterable<Message>;
  /**
   * False when no main message is a user message holding a tool call (a
   * stream's reader vouched for it): then there is no user slash command to
   * plan for, and `replay` is called only if a call's answer is not within
   * the messages the writer reads ahead.
   */
  userToolCalls?: boolean;
  subagents: () => readonly Subagent[] | undefined;
}

/** The lines of a ClaudeCodeLineSource, one text at a time (see commonToClaudeCodeLines). */
export function* claudeCodeLinesOf(
  source: ClaudeCodeLineSource,
  options?: ClaudeCodeWriteOptions,
): Generator<string> {
  const { meta } = source;
  const sessionId = claudeSessionId(meta.id);
  const base = {
    sessionId,
    cwd: meta.cwd,
    version: meta.cliVersion,
    gitBranch: meta.gitBranch ?? "",
  };
  const first = claudeUuid(`${sessionId}:line:0`);
  yield print({
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: base.cwd,
    sessionId,
    version: base.version,
    gitBranch: base.gitBranch,
    type: "system",
    subtype: "informational",
    content: importNotice,
    isMeta: false,
    timestamp: meta.timestamp,
    uuid: first,
    level: "info",
    [lineageKey]: meta.lineage,
  });
  const main: Scope = { ...base, agentId: undefined, prefix: `${sessionId}:` };
  const firstModel = yield* conversationLines(
    source.messages,
    main,
    first,
    options,
    source.replay,
    source.userToolCalls,
  );
  const subagents = source.subagents();
  if (subagents !== undefined)
    yield* subagentLines(
      subagents,
      undefined,
      base,
      meta,
      { used: new Set(), agentIds: new Set(), ordinal: 0 },
      options,
    );
  // The meta losses, after the messages' (the model needs them all).
  writtenMeta(meta, options);
  if (meta.model !== undefined && meta.model !== firstModel)
    warn(
      options,
      claudeCodeLoss.metaModel,
      "the session model reads back as the first assistant model",
    );
  if (meta.title !== undefined)
    yield print({ type: "custom-title", customTitle: meta.title, sessionId });
}

export function commonToClaudeCode(
  transcript: Transcript,
  options?: ClaudeCodeWriteOptions,
): ClaudeCodeSession {
  const lines: ClaudeCodeLine[] = [];
  for (const text of commonToClaudeCodeLines(transcript, options)) lines.push(writtenLine(text));
  return { lines, finalNewline: true };
}
