// Codex subagents as Common subagents: a subagent is a rollout of its own
// whose session_meta names the parent thread; the parent spawned it with a
// `spawn_agent` call whose output JSON carries the child's `agent_id`. The
// store finds the children; this module links them to their spawning call.
import {
  isJsonObject,
  type Json,
  type JsonObject,
  objectAt,
  ownValue,
  type Subagent,
  stringAt,
  type Transcript,
} from "@txcript/core";
import type { CodexLinesRollout } from "./codex-schema.js";

/** The parent thread a rollout's session_meta names, when it is a subagent's. */
export function parentThreadOf(meta: JsonObject | undefined): string | undefined {
  if (meta === undefined) return undefined;
  const payload = objectAt(meta, "payload") ?? meta;
  const direct = stringAt(payload, "parent_thread_id");
  if (direct !== undefined) return direct;
  const spawn = objectAt(
    objectAt(objectAt(payload, "source") ?? {}, "subagent") ?? {},
    "thread_spawn",
  );
  return spawn === undefined ? undefined : stringAt(spawn, "parent_thread_id");
}

function agentField(payload: JsonObject, key: "agent_nickname" | "agent_role"): string | undefined {
  const direct = stringAt(payload, key);
  if (direct !== undefined && direct !== "") return direct;
  const spawn = objectAt(
    objectAt(objectAt(payload, "source") ?? {}, "subagent") ?? {},
    "thread_spawn",
  );
  const nested = spawn === undefined ? undefined : stringAt(spawn, key);
  return nested === "" ? undefined : nested;
}

/** agent id → the id of the spawn_agent call whose output names it. */
function spawnCalls(transcript: Transcript): Map<string, string> {
  const spawns = new Set<string>();
  const byAgent = new Map<string, string>();
  for (const message of transcript.messages)
    for (const block of message.content) {
      if (block.type === "tool_use") {
        const name = block.tool.name === "Raw" ? block.tool.toolName : block.tool.name;
        if (name === "spawn_agent" || name.endsWith(".spawn_agent")) spawns.add(block.id);
      } else if (block.type === "tool_result" && spawns.has(block.toolUseId)) {
        let output: Json = block.content;
        if (typeof output === "string")
          try {
            output = JSON.parse(output) as Json;
          } catch {
            continue;
          }
        const agent = isJsonObject(output) ? ownValue(output, "agent_id") : undefined;
        if (typeof agent === "string") byAgent.set(agent.toLowerCase(), block.toolUseId);
      }
    }
  return byAgent;
}

/** The Common subagents of `parent` from its children's rollouts, read with `read`. */
export function subagentsOf(
  parent: Transcript,
  children: readonly CodexLinesRollout[],
  read: (rollout: CodexLinesRollout) => Transcript,
): Subagent[] {
  const byAgent = spawnCalls(parent);
  return children.map((child) => {
    const transcript = read(child);
    const meta = child.lines.find((line) => line.value !== undefined)?.value;
    const payload = (meta === undefined ? undefined : objectAt(meta, "payload")) ?? {};
    const subagent: Subagent = { id: transcript.meta.id, messages: transcript.messages };
    const call = byAgent.get(transcript.meta.id.toLowerCase());
    if (call !== undefined) subagent.toolUseId = call;
    const title = agentField(payload, "agent_nickname");
    if (title !== undefined) subagent.title = title;
    const role = agentField(payload, "agent_role");
    if (role !== undefined) subagent.agentType = role;
    if (transcript.meta.model !== undefined) subagent.model = transcript.meta.model;
    if (transcript.subagents !== undefined && transcript.subagents.length > 0)
      subagent.subagents = transcript.subagents;
    return subagent;
  });
}
