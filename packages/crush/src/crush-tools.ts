// Crush's tool dialect ⇄ the canonical tools. A Crush call becomes a typed
// canonical tool only when its arguments fit exactly: every key is one the
// table renames, and the renamed input fits the canonical schema. Writing
// renames back, key order kept; a typed tool Crush has no exact equivalent
// for is written under its canonical name, so it reads back as the same
// tool. Crush keeps a call's input as JSON text (crush-to-common.ts parses it).
import { type Json, type RenamedToolSpec, renamedToolDialect, type Tool } from "@txcript/core";

/** Crush's tool names and parameters (internal/agent/tools/*.go at the commit docs/formats/crush.md names). */
export const crushToolSpecs: readonly RenamedToolSpec[] = [
  {
    native: "view",
    canonical: "Read",
    keys: [
      ["file_path", "file_path"],
      ["offset", "offset"],
      ["limit", "limit"],
    ],
  },
  {
    native: "write",
    canonical: "Write",
    keys: [
      ["file_path", "file_path"],
      ["content", "content"],
    ],
  },
  {
    native: "edit",
    canonical: "Edit",
    keys: [
      ["file_path", "file_path"],
      ["old_string", "old_string"],
      ["new_string", "new_string"],
      ["replace_all", "replace_all"],
    ],
  },
  {
    native: "multiedit",
    canonical: "MultiEdit",
    keys: [
      ["file_path", "file_path"],
      ["edits", "edits"],
    ],
  },
  {
    native: "bash",
    canonical: "Bash",
    keys: [
      ["command", "command"],
      ["description", "description"],
      ["working_dir", "workdir"],
      ["run_in_background", "run_in_background"],
    ],
  },
  {
    native: "glob",
    canonical: "Glob",
    keys: [
      ["pattern", "pattern"],
      ["path", "path"],
    ],
  },
  {
    native: "grep",
    canonical: "Grep",
    keys: [
      ["pattern", "pattern"],
      ["path", "path"],
      ["include", "glob"],
    ],
  },
  {
    native: "ls",
    canonical: "LS",
    keys: [
      ["path", "path"],
      ["ignore", "ignore"],
    ],
  },
];

const crushDialect = renamedToolDialect(crushToolSpecs);

/** The canonical tool for a Crush call `name(input)`. */
export function crushToolToCanonical(name: string, input: Json): Tool {
  return crushDialect.toTool(name, input);
}

/** The Crush call a canonical tool is written as. */
export function canonicalToCrushTool(tool: Tool): { name: string; input: Json } {
  return crushDialect.fromTool(tool);
}
