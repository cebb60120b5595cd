// Codex's tool dialect ⇄ the canonical tools. A call becomes a typed tool only
// when its input fits exactly (docs/decisions/0002): `shell_command`,
// `exec_command {cmd, workdir}` and `shell ["bash","-lc",cmd]` are Bash,
// `web_search` is WebSearch; everything else stays Raw under its Codex name
// (a namespaced tool as `namespace.name`). Not the item mapping: see
// codex-to-common.ts and common-to-codex.ts.
import {
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  ownValue,
  type Tool,
  toCanonical,
} from "@txcript/core";

function onlyKeys(object: JsonObject, allowed: readonly string[]): boolean {
  return Object.keys(object).every((key) => allowed.includes(key));
}

function optionalString(object: JsonObject, key: string): boolean {
  const value = ownValue(object, key);
  return value === undefined || typeof value === "string";
}

function optionalInteger(object: JsonObject, key: string): boolean {
  const value = ownValue(object, key);
  return value === undefined || Number.isInteger(value);
}

/** Bash input built from Codex keys, in Bash's key order. */
function bash(command: string, workdir: Json | undefined, timeout: Json | undefined): Tool {
  const input: JsonObject = { command };
  if (typeof workdir === "string") input.workdir = workdir;
  if (typeof timeout === "number") input.timeout = timeout;
  return { name: "Bash", input: input as { command: string } };
}

/** A Codex function call `(name, arguments)` as a canonical tool. */
export function codexToolToCommon(name: string, input: Json): Tool {
  if (isJsonObject(input)) {
    const command = ownValue(input, "command");
    if (
      name === "shell_command" &&
      typeof command === "string" &&
      onlyKeys(input, ["command", "workdir", "timeout_ms"]) &&
      optionalString(input, "workdir") &&
      optionalInteger(input, "timeout_ms")
    )
      return bash(command, ownValue(input, "workdir"), ownValue(input, "timeout_ms"));
    const cmd = ownValue(input, "cmd");
    if (
      name === "exec_command" &&
      typeof cmd === "string" &&
      onlyKeys(input, ["cmd", "workdir"]) &&
      optionalString(input, "workdir")
    )
      return bash(cmd, ownValue(input, "workdir"), undefined);
    if (
      name === "shell" &&
      Array.isArray(command) &&
      command.length === 3 &&
      command[0] === "bash" &&
      command[1] === "-lc" &&
      typeof command[2] === "string" &&
      onlyKeys(input, ["command", "workdir", "timeout_ms"]) &&
      optionalString(input, "workdir") &&
      optionalInteger(input, "timeout_ms")
    )
      return bash(command[2], ownValue(input, "workdir"), ownValue(input, "timeout_ms"));
    if (name === "web_search") {
      const tool = fromCanonical("WebSearch", input);
      if (tool.name === "WebSearch") return tool;
    }
  }
  return fromCanonical(name, input);
}

/** How one canonical tool is written: a function call (JSON arguments) or a custom call (text input). */
export type CodexCall =
  | { kind: "function"; name: string; namespace?: string; input: Json }
  | { kind: "custom"; name: string; input: string };

/** The name under which a namespaced Codex tool reads (`multi_agent_v1.spawn_agent`). */
export function namespacedName(namespace: string | undefined, name: string): string {
  return namespace === undefined || namespace === "" ? name : `${namespace}.${name}`;
}

/** The Codex call for a canonical tool: the exact inverse of codexToolToCommon for the forms it writes. */
export function commonToolToCodex(tool: Tool): CodexCall {
  if (tool.name === "Bash") {
    const input = tool.input as JsonObject;
    const keys = Object.keys(input);
    if (keys.every((key) => key === "command" || key === "workdir" || key === "timeout")) {
      const args: JsonObject = { command: ownValue(input, "command") as string };
      const workdir = ownValue(input, "workdir");
      const timeout = ownValue(input, "timeout");
      if (workdir !== undefined) args.workdir = workdir;
      if (timeout !== undefined) args.timeout_ms = timeout;
      return { kind: "function", name: "shell_command", input: args };
    }
  }
  if (tool.name === "WebSearch")
    return { kind: "function", name: "web_search", input: tool.input as JsonObject };
  const { name, input } = toCanonical(tool);
  if (name === "apply_patch" && typeof input === "string") return { kind: "custom", name, input };
  const dot = name.indexOf(".");
  if (dot > 0 && dot < name.length - 1)
    return { kind: "function", namespace: name.slice(0, dot), name: name.slice(dot + 1), input };
  return { kind: "function", name, input };
}
