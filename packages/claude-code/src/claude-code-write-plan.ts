// The writer's own plan for one conversation: each step writing it as
// Claude Code lines takes (thinking Anthropic accepts, results off assistant
// lines, user slash commands on lines of their own, compaction markers alone,
// a result for every call), applied one message at a time as the writer
// walks them, each loss reported as it is applied. What this amounts to on
// read-back is stated, independently, in claude-code-project.ts.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type Message,
  stringifyJson,
  type ToolResultBlock,
  TxcriptError,
  toCanonical,
  type Usage,
  warn,
} from "@txcript/core";
import { claudeCodeLoss } from "./claude-code-losses.js";
import { commandId } from "./claude-code-read.js";
import {
  type AnsweredCalls,
  answerCalls,
  flattenContent,
  hasUsageExtras,
  isCommandCall,
  isMarker,
  isReservedModel,
  isUserCommand,
  normalizeThinking,
  userMessage,
} from "./claude-code-write-rules.js";

/** What the steps need to know about the whole transcript before handling any one message. */
interface Plan {
  /** Ids of the user slash Command calls, as given. */
  readonly commandIds: ReadonlySet<string>;
  /** The first result of each of those, wherever it is. */
  readonly commandResults: ReadonlyMap<string, ToolResultBlock>;
  /** Each user Command's new id (`command-<n>`, n its ordinal; a repeated id keeps the last). */
  readonly renamed: ReadonlyMap<string, string>;
  /**
   * Where each of `commandResults` is (`<message ordinal>:<block index>`):
   * a replay gives equal but new objects, and the steps tell a command's
   * result by identity, so each walk puts the plan's own object back there.
   */
  readonly resultSites: ReadonlyMap<string, ToolResultBlock>;
}

/** `message` (the `ordinal`-th) with the plan's own command result objects at their sites. */
function withPlanResults(message: Message, ordinal: number, plan: Plan): Message {
  if (plan.resultSites.size === 0) return message;
  let content: Block[] | undefined;
  message.content.forEach((block, index) => {
    const own = plan.resultSites.get(`${ordinal}:${index}`);
    if (own === undefined || own === block) return;
    content ??= [...message.content];
    content[index] = own;
  });
  return content === undefined ? message : { ...message, content };
}

/** What step 1 has done so far: the command results it placed, and the lines it made of them. */
interface Walk {
  readonly placed: Set<ToolResultBlock>;
  /** The lines holding a placed result, right after their command: written as command output. */
  readonly outputs: Set<Message>;
}

const newWalk = (): Walk => ({ placed: new Set(), outputs: new Set() });

/**
 * planOf's walk, one message at a time: the user Commands (each renamed by
 * its ordinal) and the results that answer an earlier assistant call, so far.
 */
class PlanScan {
  readonly commandIds = new Set<string>();
  readonly renamed = new Map<string, string>();
  readonly results = new Set<string>();
  // Every user Command becomes a lone message of its own, in input order, so
  // its ordinal among those messages is its ordinal here.
  #ordinal = 0;
  // A result answers a call only after an assistant call of its id (else it is written as
  // text): as step 1 writes them, an assistant message's calls come before its results,
  // in each stretch between its compaction markers.
  readonly #called = new Set<string>();

  add(message: Message): void {
    let stretch: Block[] = [];
    const close = () => {
      if (message.role === "assistant")
        for (const block of stretch) if (block.type === "tool_use") this.#called.add(block.id);
      for (const block of stretch)
        if (block.type === "tool_result" && this.#called.has(block.toolUseId))
          this.results.add(block.toolUseId);
      stretch = [];
    };
    for (const block of message.content)
      if (message.role === "user" && block.type === "tool_use" && isUserCommand(block)) {
        this.#ordinal += 1;
        this.commandIds.add(block.id);
        this.renamed.set(block.id, commandId(this.#ordinal));
      } else if (block.type === "compaction") close();
      else stretch.push(block);
    close();
  }
}

/**
 * The plan, in one pass over the messages when the conversation has no user
 * slash command (by far the usual case), else three. `messages()` gives
 * them from the start each time. Also every result id, when that pass can
 * tell it (no commands): answeredIds then needs no pass of its own.
 */
function planOf(messages: () => Iterable<Message>): Plan & { results?: Set<string> } {
  const scan = new PlanScan();
  for (const message of messages()) scan.add(message);
  const { commandIds, renamed, results } = scan;
  const commandResults = new Map<string, ToolResultBlock>();
  const resultSites = new Map<string, ToolResultBlock>();
  if (commandIds.size > 0) {
    let at = 0;
    for (const message of messages()) {
      message.content.forEach((block, index) => {
        if (
          block.type === "tool_result" &&
          commandIds.has(block.toolUseId) &&
          !commandResults.has(block.toolUseId)
        ) {
          commandResults.set(block.toolUseId, block);
          resultSites.set(`${at}:${index}`, block);
        }
      });
      at += 1;
    }
  }
  return renamed.size === 0
    ? { commandIds, commandResults, renamed, resultSites, results }
    : { commandIds, commandResults, renamed, resultSites };
}

/**
 * True when step 1 leaves the message as it is (by far the usual case): no
 * thinking, no result on an assistant message, and on a user message no
 * model fields, tool call or command result to move.
 */
function isPlain(message: Message, plan: Plan): boolean {
  const user = message.role === "user";
  if (
    user &&
    (message.content.length === 0 ||
      message.model !== undefined ||
      message.stopReason !== undefined ||
      message.usage !== undefined)
  )
    return false;
  if (
    !user &&
    (message.context !== undefined || hasUsageExtras(message) || isReservedModel(message.model))
  )
    return false;
  for (const block of message.content) {
    if (block.type === "thinking" || block.type === "compaction") return false;
    if (block.type === "tool_result" && (!user || plan.commandResults.has(block.toolUseId)))
      return false;
    if (block.type === "tool_use" && user) return false;
  }
  return true;
}

/**
 * Step 1, for one message: the messages it becomes, one per Claude Code
 * line. Thinking follows Anthropic's rules, results leave assistant
 * messages, user messages lose model fields, and a user slash Command (with
 * its result right after it) gets a line of its own.
 */
function splitMessage(
  message: Message,
  plan: Plan,
  walk: Walk,
  options: ConversionOptions | undefined,
): Message[] {
  if (isPlain(message, plan)) return [message];
  if (message.role === "assistant" && message.context !== undefined) {
    warn(
      options,
      claudeCodeLoss.assistantContext,
      "dropped the context mark of an assistant message",
    );
    const { context: _, ...rest } = message;
    return splitMessage(rest, plan, walk, options);
  }
  if (message.role === "assistant" && isReservedModel(message.model)) {
    warn(
      options,
      claudeCodeLoss.syntheticModel,
      `dropped the model name ${JSON.stringify(message.model)}`,
    );
    const { model: _, ...rest } = message;
    return splitMessage(rest, plan, walk, options);
  }
  if (message.role === "assistant" && hasUsageExtras(message)) {
    warn(
      options,
      claudeCodeLoss.usageExtras,
      "dropped reasoning tokens and cost of a message's usage",
    );
    const { reasoningOutputTokens: _r, costUsd: _c, ...usage } = message.usage as Usage;
    return splitMessage({ ...message, usage }, plan, walk, options);
  }
  if (message.content.some((block) => block.type === "compaction"))
    return splitCompaction(message, plan, walk, options);
  const blocks: Block[] = [];
  for (const block of message.content) {
    if (block.type !== "thinking") blocks.push(block);
    else {
      const kept = normalizeThinking(block, options);
      if (kept !== undefined) blocks.push(kept);
    }
  }
  if (message.role === "assistant") {
    const kept: Block[] = [];
    const moved: Block[] = [];
    for (const block of blocks)
      if (block.type !== "tool_result") kept.push(block);
      // A slash command's result goes right after its command, wherever it was.
      else if (plan.commandResults.get(block.toolUseId) !== block) moved.push(block);
    const { content: _, ...fields } = message;
    const out: Message[] = [{ ...fields, content: kept }];
    if (moved.length > 0) {
      warn(
        options,
        claudeCodeLoss.resultOnAssistant,
        "moved tool results to a user message",
        undefined,
        moved.length,
      );
      out.push(userMessage(moved, message.timestamp));
    }
    return out;
  }
  if (
    message.model !== undefined ||
    message.stopReason !== undefined ||
    message.usage !== undefined
  )
    warn(options, claudeCodeLoss.userMessageFields, "dropped model fields of a user message");
  const { context } = message;
  // A message with no blocks stays one (empty) message.
  if (blocks.length === 0) return [userMessage([], message.timestamp, context)];
  const out: Message[] = [];
  let group: Block[] = [];
  const flush = () => {
    if (group.length > 0) out.push(userMessage(group, message.timestamp, context));
    group = [];
  };
  for (const block of blocks) {
    if (block.type === "tool_use" && isUserCommand(block)) {
      flush();
      out.push(userMessage([block], message.timestamp, context));
      const result = plan.commandResults.get(block.id);
      if (result !== undefined && !walk.placed.has(result)) {
        walk.placed.add(result);
        const output = userMessage([result], message.timestamp, context);
        walk.outputs.add(output);
        out.push(output);
      }
    } else if (block.type === "tool_result" && plan.commandResults.get(block.toolUseId) === block) {
      // Placed right after its command (or dropped with the duplicate).
    } else if (block.type === "tool_use") {
      warn(options, claudeCodeLoss.userToolUse, "a tool call on a user message became text");
      const { name, input } = toCanonical(block.tool);
      group.push({ type: "text", text: `[tool call ${name} ${stringifyJson(input)}]` });
    } else {
      group.push(block);
    }
  }
  // A message left with nothing of its own (its command output moved) adds no line.
  flush();
  return out;
}

/**
 * A message holding compaction blocks: each becomes a marker of its own
 * (a user message with that block alone, without `history`), the blocks
 * between them messages like the original, each split as usual.
 */
function splitCompaction(
  message: Message,
  plan: Plan,
  walk: Walk,
  options: ConversionOptions | undefined,
): Message[] {
  const alone =
    message.role === "user" &&
    message.content.length === 1 &&
    message.context === undefined &&
    message.model === undefined &&
    message.stopReason === undefined &&
    message.usage === undefined;
  if (!alone)
    warn(options, claudeCodeLoss.compactionMoved, "gave a compaction marker a message of its own");
  const out: Message[] = [];
  let segment: Block[] = [];
  const flush = () => {
    if (segment.length > 0)
      out.push(...splitMessage({ ...message, content: segment }, plan, walk, options));
    segment = [];
  };
  for (const block of message.content) {
    if (block.type !== "compaction") {
      segment.push(block);
      continue;
    }
    flush();
    const { history, ...marker } = block;
    if (history !== undefined)
      warn(
        options,
        claudeCodeLoss.compactionHistory,
        "dropped the history a compaction sent instead",
      );
    out.push({ role: "user", content: [marker], timestamp: message.timestamp });
  }
  flush();
  return out;
}

function commandOutput(content: Json): string {
  return typeof content === "string" ? content : stringifyJson(content, undefined, "claude_code");
}

/**
 * Step 2, for one message: tool results hold text or content blocks; a
 * command's output line holds text; commands get ordinal ids.
 */
function rewriteMessage(
  message: Message,
  plan: Plan,
  output: boolean,
  options: ConversionOptions | undefined,
): Message {
  let changed = false;
  const content = message.content.map((block): Block => {
    if (block.type === "tool_result") {
      const renamed = output ? plan.renamed.get(block.toolUseId) : undefined;
      const text = output ? commandOutput(block.content) : flattenContent(block.content, options);
      if (renamed === undefined && text === block.content) return block;
      changed = true;
      const toolUseId = renamed ?? block.toolUseId;
      return { type: "tool_result", toolUseId, content: text, isError: block.isError };
    }
    if (block.type === "tool_use" && message.role === "user") {
      warn(options, claudeCodeLoss.userToolUse, "a slash command got a new id");
      const input = block.tool.input as { command: string; args?: string };
      const tool = {
        name: "Command" as const,
        input: { command: input.command, ...(input.args ? { args: input.args } : {}) },
      };
      changed = true;
      return { type: "tool_use", id: plan.renamed.get(block.id) ?? block.id, tool };
    }
    return block;
  });
  return changed ? { ...message, content } : message;
}

/**
 * Every result id the written session holds. Without slash commands that is
 * every result as given; with them, step 1 is run once more, silently, to
 * see which results are dropped and which are renamed.
 */
function answeredIds(
  messages: Iterable<Message>,
  plan: Plan & { results?: Set<string> },
): Set<string> {
  if (plan.results !== undefined) return plan.results;
  const answered = new Set<string>();
  const called = new Set<string>();
  const walk = newWalk();
  let at = 0;
  for (const message of messages)
    for (const split of splitMessage(withPlanResults(message, at++, plan), plan, walk, undefined))
      for (const block of split.content) {
        if (block.type === "tool_use" && split.role === "assistant") called.add(block.id);
        if (block.type !== "tool_result") continue;
        if (walk.outputs.has(split))
          answered.add(plan.renamed.get(block.toolUseId) ?? block.toolUseId);
        // A result without an earlier assistant call is written as text (orphansAsText).
        else if (called.has(block.toolUseId)) answered.add(block.toolUseId);
      }
  return answered;
}

/**
 * A user message's results whose call is no earlier assistant tool call, as
 * text (claude_code.orphan-result): the API rejects a tool_result without
 * its tool_use.
 */
function orphansAsText(
  message: Message,
  calls: ReadonlySet<string>,
  options: ConversionOptions | undefined,
): Message {
  if (!message.content.some((block) => block.type === "tool_result" && !calls.has(block.toolUseId)))
    return message;
  const content = message.content.map((block): Block => {
    if (block.type !== "tool_result" || calls.has(block.toolUseId)) return block;
    warn(options, claudeCodeLoss.orphanResult, "a tool result without its call became text");
    const text =
      typeof block.content === "string"
        ? block.content
        : stringifyJson(block.content, undefined, "claude_code");
    return { type: "text", text: `[tool result${block.isError ? " (error)" : ""}] ${text}` };
  });
  return { ...message, content };
}

function* projectMessages(
  messages: Iterable<Message>,
  answered: AnsweredCalls,
  plan: Plan,
  outputLines: WeakSet<Message>,
  options: ConversionOptions | undefined,
): Generator<Message> {
  const walk = newWalk();
  // Results synthesized for the last assistant message: they go at the front
  // of the next user message, or in a new one right after when there is none.
  let orphans: Message | undefined;
  let at = 0;
  /** The assistant tool calls written so far: a result pairs only with one of these. */
  const calls = new Set<string>();
  for (const source of messages)
    for (const split of splitMessage(withPlanResults(source, at++, plan), plan, walk, options)) {
      const output = walk.outputs.has(split);
      let message = rewriteMessage(split, plan, output, options);
      if (output) outputLines.add(message);
      else if (message.role === "user") message = orphansAsText(message, calls, options);
      else for (const block of message.content) if (block.type === "tool_use") calls.add(block.id);
      if (orphans !== undefined) {
        if (
          message.role === "user" &&
          message.context === undefined &&
          !output &&
          !isMarker(message) &&
          !isCommandCall(message)
        )
          message = { ...message, content: [...orphans.content, ...message.content] };
        else yield orphans;
        orphans = undefined;
      }
      yield message;
      if (message.role === "assistant") orphans = answerCalls(message, answered, options);
    }
  if (orphans !== undefined) yield orphans;
}

/** One conversation as the writer walks it: its messages (each loss reported as reached). */
export interface ConversationPlan {
  readonly messages: Iterable<Message>;
  /** Whether a message of `messages` is a slash command's output, written as markup. */
  isOutput(message: Message): boolean;
}

/** How many messages the writer reads ahead of the one it writes, at most, for a call's answer. */
export const answerWindow = 64;

/**
 * The answered call ids of a conversation without user slash commands (the
 * plan is then only these), found by reading ahead of the writer only as far
 * as each call's answer: as planOf finds them, without a replay of the whole
 * input before the first line. An answer is almost always in the next
 * message or two; one not found within `window` messages (nor before the
 * input ends, where an unanswered call is known for one) sends planOf over
 * one replay after all. So what is held is at most `window` messages.
 */
class AnswersAhead implements AnsweredCalls {
  readonly #scan = new PlanScan();
  /** Read (and scanned), not yet walked by the writer. */
  readonly #ahead: Message[] = [];
  readonly #source: Iterator<Message>;
  #ended = false;
  /** planOf's answered ids over a replay, once the window was not enough. */
  #whole: ReadonlySet<string> | undefined;
  /** The calls answerCalls synthesized a result for (as it adds them to planOf's set). */
  readonly #synthesized = new Set<string>();
  readonly #replay: () => Iterable<Message>;
  readonly #window: number;

  constructor(messages: Iterable<Message>, replay: () => Iterable<Message>, window: number) {
    this.#source = messages[Symbol.iterator]();
    this.#replay = replay;
    this.#window = window;
  }

  /** The messages in order, each scanned before the writer gets it. */
  *messages(): Generator<Message> {
    for (;;) {
      if (this.#ahead.length === 0 && !this.#read()) return;
      yield this.#ahead.shift() as Message;
    }
  }

  #read(): boolean {
    if (this.#ended) return false;
    const next = this.#source.next();
    if (next.done) {
      this.#ended = true;
      return false;
    }
    this.#scan.add(next.value);
    if (this.#scan.commandIds.size > 0) throw commandsAfterAll();
    this.#ahead.push(next.value);
    return true;
  }

  /** Whether a result answers `id` anywhere in the conversation (planOf's `results`), or one was synthesized. */
  has(id: string): boolean {
    if (this.#synthesized.has(id)) return true;
    if (this.#whole !== undefined) return this.#whole.has(id);
    while (!this.#scan.results.has(id)) {
      if (this.#ahead.length >= this.#window) {
        const plan = planOf(this.#replay);
        if (plan.results === undefined) throw commandsAfterAll();
        this.#whole = plan.results;
        return this.#whole.has(id);
      }
      if (!this.#read()) return false;
    }
    return true;
  }

  add(id: string): void {
    this.#synthesized.add(id);
  }
}

function commandsAfterAll(): TxcriptError {
  return new TxcriptError(
    "MISMATCH",
    "a user slash command came in a conversation said to have no user tool calls",
    {
      harness: "claude_code",
      hint: "the stream's reader said its meta part held no user tool calls: a bug in that reader",
    },
  );
}

/**
 * The plan of one conversation: `messages` walked once for writing, and
 * `replay()` (the same messages from the start: a stream read again) for
 * what the plan must know of the whole conversation first. With
 * `userToolCalls` false (the stream's reader vouched that no user message
 * holds a tool call, so there is no user slash command), the plan needs no
 * replay: the writer reads ahead for each call's answer (AnswersAhead).
 */
export function planConversation(
  messages: Iterable<Message>,
  options?: ConversionOptions,
  replay: () => Iterable<Message> = () => messages,
  userToolCalls = true,
  window = answerWindow,
): ConversationPlan {
  const outputLines = new WeakSet<Message>();
  if (!userToolCalls) {
    const ahead = new AnswersAhead(messages, replay, window);
    const none: Plan = {
      commandIds: new Set(),
      commandResults: new Map(),
      renamed: new Map(),
      resultSites: new Map(),
    };
    return {
      messages: projectMessages(ahead.messages(), ahead, none, outputLines, options),
      isOutput: (message) => outputLines.has(message),
    };
  }
  const plan = planOf(replay);
  const answered = answeredIds(plan.results === undefined ? replay() : [], plan);
  return {
    messages: projectMessages(messages, answered, plan, outputLines, options),
    isOutput: (message) => outputLines.has(message),
  };
}
