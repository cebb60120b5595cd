// The page header: what the session is (title, harness, id, cwd, branch,
// model), when (start, end, duration) and how much (messages, tool calls,
// tokens, cost), counted over the main conversation and every subagent.
import type { Message, Subagent, Transcript } from "@txcript/core";
import { escapeHtml } from "./html-escape.js";

/** "2026-03-01T10:00:01.000Z" → "2026-03-01 10:00:01 UTC". */
export function displayTime(timestamp: string): string {
  return `${timestamp.slice(0, 10)} ${timestamp.slice(11, 19)} UTC`;
}

export function timeHtml(timestamp: string): string {
  return `<time datetime="${escapeHtml(timestamp)}">${escapeHtml(displayTime(timestamp))}</time>`;
}

export function number(value: number): string {
  return value.toLocaleString("en-US");
}

function duration(milliseconds: number): string {
  const minutes = Math.round(milliseconds / 60_000);
  if (minutes < 1) return `${Math.round(milliseconds / 1000)} s`;
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

interface Totals {
  messages: number;
  subagentMessages: number;
  toolCalls: number;
  subagentToolCalls: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  cost: number;
  hasUsage: boolean;
  hasCost: boolean;
}

function add(totals: Totals, messages: readonly Message[], inSubagent: boolean): void {
  for (const message of messages) {
    if (inSubagent) totals.subagentMessages += 1;
    else totals.messages += 1;
    for (const block of message.content)
      if (block.type === "tool_use") {
        totals.toolCalls += 1;
        if (inSubagent) totals.subagentToolCalls += 1;
      }
    const usage = message.usage;
    if (usage === undefined) continue;
    totals.hasUsage = true;
    totals.input += usage.inputTokens;
    totals.output += usage.outputTokens;
    totals.cacheRead += usage.cacheReadInputTokens;
    totals.cacheWrite += usage.cacheCreationInputTokens;
    totals.reasoning += usage.reasoningOutputTokens ?? 0;
    if (usage.costUsd !== undefined) {
      totals.hasCost = true;
      totals.cost += usage.costUsd;
    }
  }
}

function totalsOf(transcript: Transcript): Totals {
  const totals: Totals = {
    messages: 0,
    subagentMessages: 0,
    toolCalls: 0,
    subagentToolCalls: 0,
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    reasoning: 0,
    cost: 0,
    hasUsage: false,
    hasCost: false,
  };
  add(totals, transcript.messages, false);
  const visit = (subagents: readonly Subagent[] | undefined) => {
    for (const subagent of subagents ?? []) {
      add(totals, subagent.messages, true);
      visit(subagent.subagents);
    }
  };
  visit(transcript.subagents);
  return totals;
}

export interface HeaderOptions {
  title: string;
  harness?: string;
  from: number;
  to: number;
}

export function headerHtml(transcript: Transcript, options: HeaderOptions): string {
  const { meta, messages } = transcript;
  const totals = totalsOf(transcript);
  const facts: [string, string][] = [];
  const fact = (label: string, html: string) => facts.push([label, html]);
  if (options.harness !== undefined) fact("harness", escapeHtml(options.harness));
  fact("session", `<span class="mono">${escapeHtml(meta.id)}</span>`);
  if (meta.cwd !== undefined) fact("cwd", `<span class="mono">${escapeHtml(meta.cwd)}</span>`);
  if (meta.gitBranch !== undefined)
    fact("branch", `<span class="mono">${escapeHtml(meta.gitBranch)}</span>`);
  const models = [
    ...new Set([meta.model, ...messages.map((message) => message.model)].filter(Boolean)),
  ] as string[];
  if (models.length > 0)
    fact(models.length === 1 ? "model" : "models", escapeHtml(models.join(", ")));
  if (meta.cliVersion !== undefined) fact("version", escapeHtml(meta.cliVersion));
  fact("started", timeHtml(meta.timestamp));
  const last = messages[messages.length - 1];
  if (last !== undefined) {
    const span = Date.parse(last.timestamp) - Date.parse(meta.timestamp);
    fact(
      "last message",
      timeHtml(last.timestamp) +
        (span > 0 ? ` <span class="caption">(${duration(span)})</span>` : ""),
    );
  }
  const shown =
    options.from === 1 && options.to === messages.length
      ? ""
      : options.from > options.to
        ? ` <span class="caption">(none shown: the range is empty)</span>`
        : ` <span class="caption">(showing #${options.from}–#${options.to})</span>`;
  fact(
    "messages",
    number(totals.messages) +
      (totals.subagentMessages > 0 ? ` + ${number(totals.subagentMessages)} in subagents` : "") +
      shown,
  );
  fact(
    "tool calls",
    number(totals.toolCalls) +
      (totals.subagentToolCalls > 0 ? ` (${number(totals.subagentToolCalls)} in subagents)` : ""),
  );
  if (totals.hasUsage) {
    const parts = [
      `${number(totals.input)} in`,
      `${number(totals.output)} out`,
      `${number(totals.cacheRead)} cache read`,
      `${number(totals.cacheWrite)} cache write`,
    ];
    if (totals.reasoning > 0) parts.push(`${number(totals.reasoning)} reasoning`);
    fact("tokens", escapeHtml(parts.join(" · ")));
  }
  if (totals.hasCost) fact("cost", escapeHtml(`$${totals.cost.toFixed(4)}`));
  if (meta.lineage !== undefined)
    fact(
      "converted from",
      escapeHtml(
        `${meta.lineage.harness} ${meta.lineage.id} (txcript ${meta.lineage.txcriptVersion})`,
      ),
    );
  const rows = facts
    .map(([label, html]) => `<dt>${escapeHtml(label)}</dt><dd>${html}</dd>`)
    .join("");
  return `<header class="session"><h1>${escapeHtml(options.title)}</h1><dl class="facts">${rows}</dl></header>`;
}
