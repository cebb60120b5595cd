// Subagents of a Claude Code session → Common subagents. 1.0.x keeps a
// subagent's lines inline (isSidechain, a chain of its own); 2.x writes
// them to `<session>/subagents/agent-<agentId>.jsonl`, and the spawning
// Task/Agent result's line records `toolUseResult.agentId`. A subagent is
// linked to its call by txcript's own key when txcript wrote it, else by
// that agentId, else (1.0.x) by its first prompt being the call's prompt.

import type { LossTally } from "@txcript/core";
import { isJsonObject, type Json, type JsonObject, ownValue, type Subagent } from "@txcript/core";
import { claudeCodeLoss } from "./claude-code-losses.js";
import { readConversation } from "./claude-code-read.js";
import type { ClaudeCodeSubagentFile } from "./claude-code-schema.js";
import { objectAt, stringAt } from "./claude-code-schema.js";
import { type IndexedLine, type Sidechain, selectConversations } from "./claude-code-thread.js";
import { subagentKey } from "./claude-code-written.js";

/** The tools that spawn a subagent (Task, renamed Agent in 2.1). */
export const spawningTools: ReadonlySet<string> = new Set(["Task", "Agent"]);

interface Call {
  id: string;
  prompt?: string;
  description?: string;
  subagentType?: string;
}

interface Source {
  agentId?: string;
  fallbackId: string;
  lines: readonly IndexedLine[];
}

interface Written {
  id: string;
  toolUseId?: string;
  title?: string;
  agentType?: string;
  model?: string;
  parent?: string;
}

function contentOf(value: JsonObject): Json | undefined {
  const message = objectAt(value, "message");
  return message === undefined ? undefined : ownValue(message, "content");
}

/** The txcript key on a subagent's first line, when it is well formed. */
function writtenOf(lines: readonly IndexedLine[]): Written | undefined {
  const value = lines[0] === undefined ? undefined : ownValue(lines[0].value, subagentKey);
  if (!isJsonObject(value)) return undefined;
  const id = stringAt(value, "id");
  if (id === undefined || id === "") return undefined;
  const written: Written = { id };
  for (const key of ["toolUseId", "title", "agentType", "model", "parent"] as const) {
    const field = stringAt(value, key);
    // Common's ids and agent types are never empty: an empty one (a damaged marker) is not carried.
    if (field !== undefined && (field !== "" || key === "title" || key === "model"))
      written[key] = field;
  }
  return written;
}

/** Calls to Task/Agent, and agentId → the call whose result line names it. */
function linksOf(lines: readonly IndexedLine[]) {
  const calls = new Map<string, Call>();
  const byPrompt = new Map<string, string[]>();
  const byAgentId = new Map<string, { toolUseId: string; agentType?: string }>();
  for (const { value } of lines) {
    const content = contentOf(value);
    if (!Array.isArray(content)) continue;
    const type = stringAt(value, "type");
    if (type === "assistant") {
      for (const block of content) {
        if (!isJsonObject(block) || ownValue(block, "type") !== "tool_use") continue;
        const id = stringAt(block, "id");
        const name = stringAt(block, "name");
        const input = objectAt(block, "input");
        if (id === undefined || name === undefined || !spawningTools.has(name)) continue;
        const call: Call = { id };
        const prompt = input === undefined ? undefined : stringAt(input, "prompt");
        const description = input === undefined ? undefined : stringAt(input, "description");
        const subagentType = input === undefined ? undefined : stringAt(input, "subagent_type");
        if (prompt !== undefined) {
          call.prompt = prompt;
          byPrompt.set(prompt, [...(byPrompt.get(prompt) ?? []), id]);
        }
        if (description !== undefined) call.description = description;
        if (subagentType !== undefined) call.subagentType = subagentType;
        if (!calls.has(id)) calls.set(id, call);
      }
    } else if (type === "user") {
      const result = objectAt(value, "toolUseResult");
      const agentId = result === undefined ? undefined : stringAt(result, "agentId");
      const answered = content.find(
        (block) => isJsonObject(block) && ownValue(block, "type") === "tool_result",
      );
      const toolUseId = isJsonObject(answered) ? stringAt(answered, "tool_use_id") : undefined;
      if (agentId === undefined || !toolUseId || byAgentId.has(agentId)) continue;
      const agentType = result === undefined ? undefined : stringAt(result, "agentType");
      byAgentId.set(agentId, agentType === undefined ? { toolUseId } : { toolUseId, agentType });
    }
  }
  return { calls, byPrompt, byAgentId };
}

function firstPrompt(lines: readonly IndexedLine[]): string | undefined {
  const first = lines[0];
  if (first === undefined || stringAt(first.value, "type") !== "user") return undefined;
  const content = contentOf(first.value);
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.length === 1 && isJsonObject(content[0]))
    return stringAt(content[0], "text");
  return undefined;
}

export function readSubagents(
  mainLines: readonly IndexedLine[],
  sidechains: readonly Sidechain[],
  files: readonly ClaudeCodeSubagentFile[],
  tally: LossTally,
): Subagent[] {
  const sources: Source[] = sidechains.map((sidechain) => ({
    ...(sidechain.agentId === undefined ? {} : { agentId: sidechain.agentId }),
    fallbackId: sidechain.rootUuid,
    lines: sidechain.thread.lines,
  }));
  for (const file of files) {
    const all: IndexedLine[] = [];
    file.session.lines.forEach((line, index) => {
      if (line.value !== undefined) all.push({ index, value: line.value });
    });
    const conversations = selectConversations(all);
    tally.add(
      claudeCodeLoss.duplicateLine,
      "dropped lines repeating a uuid",
      conversations.duplicateCount,
    );
    tally.add(
      claudeCodeLoss.branch,
      "left out lines of abandoned branches",
      conversations.main.branchCount,
    );
    const agentId = conversations.main.lines
      .map(({ value }) => stringAt(value, "agentId"))
      .find((id) => id !== undefined && id !== "");
    sources.push({
      agentId: agentId ?? file.agentId,
      fallbackId: file.agentId,
      lines: conversations.main.lines,
    });
  }
  if (sources.length === 0) return [];

  const everyLine: IndexedLine[] = [...mainLines];
  for (const source of sources) everyLine.push(...source.lines);
  const { calls, byPrompt, byAgentId } = linksOf(everyLine);
  const taken = new Set<string>();
  const read: { subagent: Subagent; parent?: string }[] = [];
  for (const source of sources) {
    const written = writtenOf(source.lines);
    const subagent: Subagent = {
      id: written?.id ?? source.agentId ?? source.fallbackId,
      messages: readConversation(source.lines, tally),
    };
    if (written !== undefined) {
      if (written.toolUseId !== undefined) subagent.toolUseId = written.toolUseId;
      if (written.title !== undefined) subagent.title = written.title;
      if (written.agentType !== undefined) subagent.agentType = written.agentType;
      if (written.model !== undefined) subagent.model = written.model;
      read.push(written.parent === undefined ? { subagent } : { subagent, parent: written.parent });
      continue;
    }
    const linked = source.agentId === undefined ? undefined : byAgentId.get(source.agentId);
    let toolUseId = linked?.toolUseId;
    const prompt = firstPrompt(source.lines);
    if (toolUseId === undefined && prompt !== undefined)
      toolUseId = byPrompt.get(prompt)?.find((id) => !taken.has(id));
    const call = toolUseId === undefined ? undefined : calls.get(toolUseId);
    if (toolUseId !== undefined) {
      taken.add(toolUseId);
      subagent.toolUseId = toolUseId;
    }
    if (call?.description !== undefined) subagent.title = call.description;
    const agentType = linked?.agentType ?? call?.subagentType;
    if (agentType !== undefined && agentType !== "") subagent.agentType = agentType;
    read.push({ subagent });
  }
  // Nest each subagent txcript wrote inside another under it (parents come first).
  const seen = new Map<string, Subagent>();
  const top: Subagent[] = [];
  for (const { subagent, parent } of read) {
    const host = parent === undefined ? undefined : seen.get(parent);
    if (host === undefined) top.push(subagent);
    else host.subagents = [...(host.subagents ?? []), subagent];
    if (!seen.has(subagent.id)) seen.set(subagent.id, subagent);
  }
  return top;
}
