// renderHtml: a transcript as one self-contained HTML page. No script, no
// external resource (a Content-Security-Policy says so to the browser too):
// inline CSS, <details> for everything folded, images as data: URLs. Message
// ordinals are the ones `txcript view` prints, as anchors (#m12).
import {
  type Message,
  type MessageRange,
  resolveRange,
  type Subagent,
  type ToolResultBlock,
  type Transcript,
} from "@txcript/core";
import { type BlockContext, blockHtml } from "./html-blocks.js";
import { escapeHtml } from "./html-escape.js";
import { headerHtml, number, timeHtml } from "./html-header.js";
import { pageStyle } from "./html-style.js";

export interface RenderHtmlOptions {
  /** Ordinals to show (1-based, inclusive, as `txcript view`). Default: all. */
  range?: MessageRange;
  /** The page title. Default: the session's title, else its id. */
  title?: string;
  /** The harness the session was read from, shown in the header ("claude_code"). */
  harness?: string;
}

const contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** Subagents by the tool_use id that spawned them (undefined: not linked). */
function byCall(subagents: readonly Subagent[] | undefined): Map<string | undefined, Subagent[]> {
  const map = new Map<string | undefined, Subagent[]>();
  for (const subagent of subagents ?? []) {
    const list = map.get(subagent.toolUseId) ?? [];
    list.push(subagent);
    map.set(subagent.toolUseId, list);
  }
  return map;
}

/** First result of each call that comes after the call, in this list of messages. */
function pairResults(messages: readonly Message[]): Map<string, ToolResultBlock> {
  const calls = new Set<string>();
  const results = new Map<string, ToolResultBlock>();
  for (const message of messages)
    for (const block of message.content) {
      if (block.type === "tool_use") calls.add(block.id);
      else if (
        block.type === "tool_result" &&
        calls.has(block.toolUseId) &&
        !results.has(block.toolUseId)
      )
        results.set(block.toolUseId, block);
    }
  return results;
}

class Page {
  private calls = 0;
  private agents = 0;

  nextCall = (): string => {
    this.calls += 1;
    return `c${this.calls}`;
  };

  /** One conversation (the main one, a subagent's, or a compaction's history). */
  conversation(
    subagents: readonly Subagent[] | undefined,
    entries: { message: Message; anchor: string; label: string }[],
  ): string {
    const linked = byCall(subagents);
    const context: BlockContext = {
      results: pairResults(entries.map((entry) => entry.message)),
      callAnchors: new Map(),
      shown: new Set<ToolResultBlock>(),
      subagentsOf: (id: string) => linked.get(id) ?? [],
      renderSubagent: (subagent: Subagent, under: string) => this.subagent(subagent, under),
      renderHistory: (history: readonly Message[], under: string) =>
        this.conversation(
          undefined,
          history.map((message, index) => ({
            message,
            anchor: `${under}-h${index + 1}`,
            label: `history ${index + 1}`,
          })),
        ),
      anchor: "",
      label: "",
      nextCall: this.nextCall,
    };
    return entries
      .map(({ message, anchor, label }) => {
        context.anchor = anchor;
        context.label = label;
        return this.message(message, anchor, label, context);
      })
      .join("");
  }

  message(message: Message, anchor: string, label: string, context: BlockContext): string {
    const compaction = message.content.length === 1 && message.content[0]?.type === "compaction";
    // Role and kind come from the schema's enums, but a caller may skip validation: escape them too.
    const classes = ["message", escapeHtml(message.role)];
    if (message.context !== undefined) classes.push("context");
    if (compaction) classes.push("compaction");
    // A message that only hands results back: its results show under their calls.
    if (
      message.content.length > 0 &&
      message.content.every(
        (block) => block.type === "tool_result" && context.results.get(block.toolUseId) === block,
      )
    )
      classes.push("relay");
    const head: string[] = [
      `<a class="ordinal" href="#${anchor}">${escapeHtml(label)}</a>`,
      `<span class="role">${escapeHtml(message.context === undefined ? message.role : message.context.kind)}</span>`,
      timeHtml(message.timestamp),
    ];
    if (message.context !== undefined)
      head.push(
        `<span class="badge context">${escapeHtml(
          `${message.context.kind === "injected" ? "injected by the harness" : `${message.context.kind} message`}${message.context.source ? `: ${message.context.source}` : ""}`,
        )}</span>`,
      );
    if (message.model !== undefined)
      head.push(`<span class="model">${escapeHtml(message.model)}</span>`);
    if (
      message.stopReason !== undefined &&
      message.stopReason !== "end_turn" &&
      message.stopReason !== "tool_use"
    )
      head.push(
        `<span class="badge${message.stopReason === "error" ? " error" : ""}">${escapeHtml(message.stopReason)}</span>`,
      );
    if (message.usage !== undefined)
      head.push(
        `<span class="usage">${escapeHtml(`${number(message.usage.inputTokens + message.usage.cacheReadInputTokens + message.usage.cacheCreationInputTokens)} in · ${number(message.usage.outputTokens)} out`)}</span>`,
      );
    let body = message.content.map((block) => blockHtml(block, context)).join("");
    if (message.context !== undefined)
      body = `<details class="context-body"><summary>${escapeHtml(`${message.context.kind} text, not typed by the person`)}</summary>${body}</details>`;
    return `<article class="${classes.join(" ")}" id="${anchor}"><div class="head">${head.join("")}</div>${body}</article>`;
  }

  subagent(subagent: Subagent, under: string): string {
    this.agents += 1;
    const prefix = `${under}-a${this.agents}`;
    const name = [subagent.agentType, subagent.title].filter(Boolean).join(": ");
    const facts = [
      `subagent${name ? ` · ${name}` : ""}`,
      `${subagent.messages.length} messages`,
      subagent.model,
    ].filter(Boolean);
    const messages = this.conversation(
      subagent.subagents,
      subagent.messages.map((message, index) => ({
        message,
        anchor: `${prefix}-${index + 1}`,
        label: `${subagent.id} · ${index + 1}`,
      })),
    );
    const orphans = (byCall(subagent.subagents).get(undefined) ?? [])
      .map((orphan) => this.subagent(orphan, prefix))
      .join("");
    return `<details class="subagent" id="${prefix}"><summary>${escapeHtml(facts.join(" · "))}</summary>${messages}${orphans}</details>`;
  }
}

/** The transcript as one self-contained HTML page (a complete document, UTF-8). */
export function renderHtml(transcript: Transcript, options: RenderHtmlOptions = {}): string {
  const { from, to } = resolveRange(options.range, transcript.messages.length);
  const title = options.title ?? transcript.meta.title ?? transcript.meta.id;
  const page = new Page();
  const entries = [];
  for (let ordinal = from; ordinal <= to; ordinal += 1)
    entries.push({
      message: transcript.messages[ordinal - 1] as Message,
      anchor: `m${ordinal}`,
      label: `#${ordinal}`,
    });
  let messages = page.conversation(transcript.subagents, entries);
  const unlinked = byCall(transcript.subagents).get(undefined) ?? [];
  if (from === 1 && to === transcript.messages.length && unlinked.length > 0)
    messages += `<section class="unlinked"><h2>Subagents not linked to a call</h2>${unlinked
      .map((subagent) => page.subagent(subagent, "s"))
      .join("")}</section>`;
  const header = headerHtml(transcript, {
    title,
    ...(options.harness === undefined ? {} : { harness: options.harness }),
    from,
    to,
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="txcript">
<title>${escapeHtml(title)}</title>
<style>${pageStyle}</style>
</head>
<body>
<main>
${header}
<section class="messages">${messages}</section>
<footer>A txcript session page. Every section folds with its own summary line; message links are #m&lt;ordinal&gt;.</footer>
</main>
</body>
</html>
`;
}
