// The one load of a Codex rollout by its file: the store's `load(id)` is
// locate(id) and this, and the harness's `loadFile` is this for any path. A
// rollout that sits in a Codex home's layout
// (`<home>/sessions|archived_sessions/YYYY/MM/DD/rollout-….jsonl`) comes with
// the rollouts of the agents it spawned (found by the parent thread their
// session_meta names, CodexStore); a lone rollout reads alone. Either way,
// each agent a `spawn_agent` call's output names whose rollout is not there
// is a named loss (codex.subagent-rollout-missing).
import * as path from "node:path";
import {
  type ConversionOptions,
  isJsonObject,
  type Json,
  type LoadContext,
  ownValue,
  warn,
} from "@txcript/core";
import { codexCodec } from "./codex-codec.js";
import { codexLoss } from "./codex-losses.js";
import type { CodexLinesRollout, CodexRollout } from "./codex-schema.js";
import { readRolloutFile } from "./codex-store-reads.js";

const dateSegment = [/^\d{4}$/, /^\d{2}$/, /^\d{2}$/];

/** The Codex home a rollout file sits in, when its path is a store's layout; undefined for a lone file. */
export function codexHomeOf(file: string): string | undefined {
  const day = path.dirname(path.resolve(file));
  const month = path.dirname(day);
  const year = path.dirname(month);
  const sessions = path.dirname(year);
  const segments = [path.basename(year), path.basename(month), path.basename(day)];
  if (!segments.every((segment, index) => dateSegment[index]?.test(segment))) return undefined;
  const name = path.basename(sessions);
  return name === "sessions" || name === "archived_sessions" ? path.dirname(sessions) : undefined;
}

/** A rollout file's text: a compressed one decompressed, else through the context's reader. */
export async function readRollout(file: string, context: Partial<LoadContext>): Promise<string> {
  if (file.endsWith(".zst")) return readRolloutFile(file);
  if (context.text !== undefined) return context.text;
  return context.readText === undefined ? readRolloutFile(file) : context.readText(file);
}

function payloadOf(value: Record<string, Json> | undefined): Record<string, Json> | undefined {
  if (value === undefined || value.type !== "response_item") return undefined;
  const payload = ownValue(value, "payload");
  return isJsonObject(payload) ? payload : undefined;
}

/** The agent ids a rollout's spawn_agent calls' outputs name (lower case, in order). */
export function spawnedAgents(rollout: CodexLinesRollout): string[] {
  const spawns = new Set<string>();
  const agents: string[] = [];
  for (const line of rollout.lines) {
    if (!line.text.includes("spawn_agent") && !line.text.includes("agent_id")) continue;
    const payload = payloadOf(line.value);
    if (payload === undefined) continue;
    const callId = payload.call_id;
    if (typeof callId !== "string") continue;
    const name = payload.name;
    if (
      payload.type === "function_call" &&
      typeof name === "string" &&
      (name === "spawn_agent" || name.endsWith(".spawn_agent"))
    ) {
      spawns.add(callId);
      continue;
    }
    if (payload.type !== "function_call_output" || !spawns.has(callId)) continue;
    let output: unknown = payload.output;
    if (typeof output === "string")
      try {
        output = JSON.parse(output);
      } catch {
        continue;
      }
    const agent = isJsonObject(output as Json)
      ? (output as Record<string, unknown>).agent_id
      : undefined;
    if (typeof agent === "string" && !agents.includes(agent.toLowerCase()))
      agents.push(agent.toLowerCase());
  }
  return agents;
}

/** The session id a rollout's session_meta gives (lower case). */
export function rolloutSessionId(rollout: CodexLinesRollout): string | undefined {
  const meta = rollout.lines.find((line) => line.value !== undefined)?.value;
  const payload = meta === undefined ? undefined : ownValue(meta, "payload");
  const id = isJsonObject(payload as Json) ? (payload as Record<string, unknown>).id : undefined;
  return typeof id === "string" ? id.toLowerCase() : undefined;
}

/** Report each spawned agent whose rollout the loaded session does not hold. */
export function reportMissingRollouts(
  rollout: CodexRollout,
  file: string | undefined,
  options: ConversionOptions | undefined,
): void {
  if (rollout.kind !== "lines") return;
  const held = new Set((rollout.subagents ?? []).flatMap((child) => rolloutSessionId(child) ?? []));
  for (const agent of spawnedAgents(rollout))
    if (!held.has(agent))
      warn(
        options,
        codexLoss.subagentRolloutMissing,
        `agent ${agent} was spawned but its rollout is not ${file !== undefined && codexHomeOf(file) !== undefined ? "in the Codex home" : `beside ${file === undefined ? "the session" : path.basename(file)} (a lone file is read alone)`}: its conversation is left out`,
      );
}

/** The rollout of `file` alone: parsed, nothing gathered. */
export async function parseRolloutFile(
  file: string,
  context: Partial<LoadContext>,
): Promise<CodexRollout> {
  return codexCodec.parse(await readRollout(file, context), { file });
}
