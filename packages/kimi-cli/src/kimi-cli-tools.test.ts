// Kimi CLI's tool dialect: typed tools come back as themselves through Kimi
// CLI's form; Kimi CLI's own calls become canonical tools only when they fit
// exactly; and a Raw call under one of Kimi CLI's names reads back as the
// law's project says (its own copy of the format page's table).

import type { Json, Tool, Transcript } from "@txcript/core";
import { jsonArbitrary, jsonObjectArbitrary, typedToolArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { kimiCliCodec } from "./kimi-cli-codec.js";
import { kimiCliProject } from "./kimi-cli-project.js";
import { canonicalToKimiTool, kimiToolToCanonical } from "./kimi-cli-tools.js";

const names = [
  "Shell",
  "ReadFile",
  "WriteFile",
  "StrReplaceFile",
  "Glob",
  "FetchURL",
  "SearchWeb",
  "Agent",
  "Grep",
  "Bash",
  "Read",
];

function oneCall(tool: Tool): Transcript {
  return {
    meta: { id: "4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90", timestamp: "2026-03-01T10:00:00.000Z" },
    messages: [
      {
        role: "assistant",
        timestamp: "2026-03-01T10:00:00.000Z",
        content: [{ type: "tool_use", id: "c1", tool }],
      },
    ],
  };
}

function throughFile(transcript: Transcript): Transcript {
  return kimiCliCodec.toCommon(
    kimiCliCodec.parse(kimiCliCodec.serialize(kimiCliCodec.fromCommon(transcript))),
  );
}

describe("Kimi CLI tool dialect", () => {
  it("every typed tool reads back as itself", () => {
    fc.assert(
      fc.property(typedToolArbitrary, (tool) => {
        const { name, input } = canonicalToKimiTool(tool);
        expect(kimiToolToCanonical(name, input)).toEqual(tool);
      }),
      lawParameters(2000),
    );
  });
  it("a Raw call under any of Kimi CLI's names reads back as project says", () => {
    const inputs = fc.oneof(
      jsonObjectArbitrary,
      jsonArbitrary,
      fc.record({ command: fc.string() }, { requiredKeys: [] }),
      fc.record(
        {
          path: fc.string(),
          line_offset: fc.integer({ min: -3, max: 3 }),
          n_lines: fc.integer({ min: -1, max: 3 }),
        },
        { requiredKeys: ["path"] },
      ),
      fc.record(
        {
          path: fc.string(),
          edit: fc.oneof(
            fc.record({ old: fc.string(), new: fc.string() }),
            fc.array(
              fc.record(
                { old: fc.string(), new: fc.string(), replace_all: fc.boolean() },
                { requiredKeys: ["old", "new"] },
              ),
              { maxLength: 2 },
            ),
          ),
        },
        { requiredKeys: ["edit"] },
      ),
    );
    fc.assert(
      fc.property(fc.constantFrom(...names), inputs, (name, input: Json) => {
        const transcript = oneCall({ name: "Raw", toolName: name, input });
        expect(throughFile(transcript)).toEqual(kimiCliProject(transcript));
      }),
      lawParameters(2000),
    );
  });
  it("reads Kimi CLI's calls as canonical tools only when they fit exactly", () => {
    expect(kimiToolToCanonical("Shell", { command: "ls" })).toEqual({
      name: "Bash",
      input: { command: "ls" },
    });
    expect(kimiToolToCanonical("ReadFile", { path: "a.py", line_offset: 10, n_lines: 5 })).toEqual({
      name: "Read",
      input: { file_path: "a.py", offset: 10, limit: 5 },
    });
    expect(
      kimiToolToCanonical("StrReplaceFile", { path: "a", edit: { old: "x", new: "y" } }),
    ).toEqual({
      name: "Edit",
      input: { file_path: "a", old_string: "x", new_string: "y" },
    });
    expect(
      kimiToolToCanonical("StrReplaceFile", { path: "a", edit: [{ old: "x", new: "y" }] }),
    ).toEqual({
      name: "MultiEdit",
      input: { file_path: "a", edits: [{ old_string: "x", new_string: "y" }] },
    });
    expect(
      kimiToolToCanonical("Agent", { description: "d", prompt: "p", subagent_type: "coder" }).name,
    ).toBe("Task");
    // Controls: Shell's timeout is in seconds (Bash's in ms); a negative line_offset reads from the end;
    // WriteFile's mode and Glob's include_dirs have no canonical key; Grep's keys differ.
    for (const [name, input] of [
      ["Shell", { command: "ls", timeout: 60 }],
      ["ReadFile", { path: "a.py", line_offset: -100 }],
      ["WriteFile", { path: "a", content: "x", mode: "append" }],
      ["Glob", { pattern: "*.py", include_dirs: true }],
      ["StrReplaceFile", { path: "a", edit: { old: "x" } }],
    ] as const)
      expect(kimiToolToCanonical(name, input as Json)).toEqual({
        name: "Raw",
        toolName: name,
        input,
      });
  });
  it("writes a typed tool in Kimi CLI's form when it has one, else under its canonical name", () => {
    expect(canonicalToKimiTool({ name: "Bash", input: { command: "ls" } })).toEqual({
      name: "Shell",
      input: { command: "ls" },
    });
    expect(canonicalToKimiTool({ name: "Bash", input: { command: "ls", timeout: 1000 } })).toEqual({
      name: "Bash",
      input: { command: "ls", timeout: 1000 },
    });
    expect(canonicalToKimiTool({ name: "Read", input: { file_path: "a", offset: 0 } })).toEqual({
      name: "Read",
      input: { file_path: "a", offset: 0 },
    });
    expect(
      canonicalToKimiTool({
        name: "Edit",
        input: { file_path: "a", old_string: "x", new_string: "y", replace_all: true },
      }),
    ).toEqual({
      name: "StrReplaceFile",
      input: { path: "a", edit: { old: "x", new: "y", replace_all: true } },
    });
  });
});
