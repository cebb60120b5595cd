import { type Json, type Tool, toCanonical } from "@txcript/core";
import { jsonArbitrary, jsonObjectArbitrary, toolArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ampSpelling, ampToolFromCommon, ampToolToCommon } from "./amp-tools.js";

const ampNames = [
  "Bash",
  "shell_command",
  "Read",
  "edit_file",
  "create_file",
  "glob",
  "Grep",
  "todo_write",
  "todo_read",
  "read_web_page",
  "Task",
] as const;

/** The keys each Amp tool takes (the era-matched CLI's input schemas, plus shell_command from the real export). */
const ampKeys: Record<(typeof ampNames)[number], string[]> = {
  Bash: ["cmd", "cwd"],
  shell_command: ["command", "workdir"],
  Read: ["path", "read_range"],
  edit_file: ["path", "old_str", "new_str", "replace_all"],
  create_file: ["path", "content"],
  glob: ["filePattern", "limit", "offset"],
  Grep: ["pattern", "path", "glob", "caseSensitive", "literal"],
  todo_write: ["todos"],
  todo_read: [],
  read_web_page: ["url", "objective", "forceRefetch"],
  Task: ["prompt", "description"],
};

const valueArbitrary: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.integer() },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.oneof(fc.integer(), fc.constant(Number.MAX_SAFE_INTEGER)),
      fc.oneof(
        fc.integer(),
        fc.constant(-Number.MAX_SAFE_INTEGER),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record(
        {
          id: fc.string({ maxLength: 4 }),
          content: fc.string({ maxLength: 8 }),
          status: fc.constantFrom("todo", "in-progress", "completed"),
        },
        { requiredKeys: ["content", "status"] },
      ),
      { maxLength: 2 },
    ),
  },
  { weight: 1, arbitrary: jsonArbitrary },
);

/** Amp-shaped calls: an Amp name with a subset of its keys in any order, sometimes a stray key. */
const ampShapedCall = fc
  .constantFrom(...ampNames)
  .chain((name) =>
    fc.record({
      name: fc.constant(name as string),
      entries: fc
        .shuffledSubarray(ampKeys[name])
        .chain((keys) =>
          fc.tuple(...keys.map((key) => fc.tuple(fc.constant(key), valueArbitrary))),
        ),
      stray: fc.option(
        fc.tuple(fc.constantFrom("__proto__", "extra", "file_path"), valueArbitrary),
        {
          freq: 5,
        },
      ),
    }),
  )
  .map(({ name, entries, stray }) => {
    const input = JSON.parse("{}") as Record<string, Json>;
    for (const [key, value] of stray ? [...entries, stray] : entries)
      Object.defineProperty(input, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return { name, input: input as Json };
  });

const anyCall = fc.oneof(
  { weight: 3, arbitrary: ampShapedCall },
  {
    weight: 1,
    arbitrary: fc.record({
      name: fc.oneof(
        fc.constantFrom(...ampNames, "Write", "apply_patch", "__proto__"),
        fc.string(),
      ),
      input: fc.oneof(jsonObjectArbitrary, jsonArbitrary),
    }),
  },
);

const parameters = lawParameters();

function sameOrdered(left: unknown, right: unknown): void {
  expect(JSON.stringify(left)).toBe(JSON.stringify(right));
  expect(left).toEqual(right);
}

describe("ampToolFromCommon(ampToolToCommon(name, input)) = {name, input}", () => {
  it("is exact (key order included) for any Amp name and JSON input, in the name's own era", () => {
    fc.assert(
      fc.property(anyCall, ({ name, input }) => {
        const era = name === "shell_command" ? "modern" : "legacy";
        sameOrdered(ampToolFromCommon(ampToolToCommon(name, input), { toolEra: era }), {
          name,
          input,
        });
      }),
      parameters,
    );
  });
  it("keeps the input object itself for Raw tools", () => {
    const input = { cmd: "ls", timeout: 5 };
    const tool = ampToolToCommon("Bash", input);
    expect(tool).toEqual({ name: "Raw", toolName: "Bash", input });
    expect(tool.name === "Raw" && tool.input).toBe(input);
  });
  it("writes a modern shell_command back in the legacy spelling by default", () => {
    const tool = ampToolToCommon("shell_command", { command: "ls", workdir: "/w" });
    expect(ampToolFromCommon(tool)).toEqual({ name: "Bash", input: { cmd: "ls", cwd: "/w" } });
  });
});

describe("ampToolToCommon(ampToolFromCommon(tool))", () => {
  it("is the same typed tool, or Raw under the canonical name when Amp has no exact spelling", () => {
    fc.assert(
      fc.property(
        toolArbitrary,
        fc.constantFrom("legacy", "modern") as fc.Arbitrary<"legacy" | "modern">,
        (tool, era) => {
          const written = ampToolFromCommon(tool, { toolEra: era });
          const back = ampToolToCommon(written.name, written.input);
          if (tool.name !== "Raw") {
            if (ampSpelling(tool, era) === undefined) {
              expect(written).toEqual(toCanonical(tool));
              expect(back).toEqual({ name: "Raw", toolName: tool.name, input: tool.input });
            } else {
              expect(back).toEqual(tool);
            }
          } else {
            const read = ampToolToCommon(tool.toolName, tool.input);
            expect(back).toEqual(read);
            if (read.name === "Raw") expect(written).toEqual(toCanonical(tool));
          }
        },
      ),
      parameters,
    );
  });
  it("is idempotent: writing what it read writes the same call", () => {
    fc.assert(
      fc.property(toolArbitrary, (tool) => {
        const first = ampToolFromCommon(tool);
        const again = ampToolFromCommon(ampToolToCommon(first.name, first.input));
        sameOrdered(again, first);
      }),
      parameters,
    );
  });
});

describe("the mapping table", () => {
  const cases: { amp: [string, Json]; common: Tool }[] = [
    {
      amp: ["Bash", { cmd: "cargo test", cwd: "/p" }],
      common: { name: "Bash", input: { command: "cargo test", workdir: "/p" } },
    },
    {
      amp: ["shell_command", { command: "ls -la", workdir: "/tmp" }],
      common: { name: "Bash", input: { command: "ls -la", workdir: "/tmp" } },
    },
    {
      amp: ["Read", { path: "/a.ts", read_range: [10, 19] }],
      common: { name: "Read", input: { file_path: "/a.ts", offset: 10, limit: 10 } },
    },
    { amp: ["Read", { path: "/a.ts" }], common: { name: "Read", input: { file_path: "/a.ts" } } },
    {
      amp: ["edit_file", { path: "/a", old_str: "x", new_str: "y", replace_all: true }],
      common: {
        name: "Edit",
        input: { file_path: "/a", old_string: "x", new_string: "y", replace_all: true },
      },
    },
    {
      amp: ["create_file", { path: "/a", content: "hi" }],
      common: { name: "Write", input: { file_path: "/a", content: "hi" } },
    },
    {
      amp: ["glob", { filePattern: "**/*.ts" }],
      common: { name: "Glob", input: { pattern: "**/*.ts" } },
    },
    {
      amp: ["Grep", { pattern: "fixture", path: ".", caseSensitive: false }],
      common: { name: "Grep", input: { pattern: "fixture", path: ".", "-i": true } },
    },
    {
      amp: ["todo_write", { todos: [{ id: "1", content: "a", status: "todo" }] }],
      common: { name: "TodoWrite", input: { todos: [{ id: "1", content: "a", status: "todo" }] } },
    },
    { amp: ["todo_read", {}], common: { name: "TodoRead", input: {} } },
    {
      amp: ["read_web_page", { url: "https://x.dev", objective: "the API" }],
      common: { name: "WebFetch", input: { url: "https://x.dev", prompt: "the API" } },
    },
    {
      amp: ["Task", { prompt: "count", description: "Count words" }],
      common: { name: "Task", input: { prompt: "count", description: "Count words" } },
    },
  ];
  for (const { amp, common } of cases) {
    it(`${amp[0]} ${JSON.stringify(amp[1])} ⇄ ${common.name}`, () => {
      expect(ampToolToCommon(amp[0], amp[1])).toEqual(common);
      const era = amp[0] === "shell_command" ? "modern" : "legacy";
      sameOrdered(ampToolFromCommon(common, { toolEra: era }), { name: amp[0], input: amp[1] });
    });
  }

  const raw: [string, Json][] = [
    ["apply_patch", { patchText: "*** Begin Patch" }],
    ["Bash", { command: "ls" }],
    ["Bash", { cmd: 1 }],
    ["Read", { path: "/a", read_range: [1] }],
    ["Read", { path: "/a", read_range: [1.5, 3] }],
    ["Read", { path: "/a", read_range: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER] }],
    ["glob", { filePattern: "*", limit: 5 }],
    ["Grep", { pattern: "x", literal: true }],
    ["read_web_page", { url: "u", forceRefetch: true }],
    ["Task", { prompt: "p" }],
    ["todo_write", { todos: [{ id: "1", content: "a" }] }],
    [
      "edit_file",
      JSON.parse('{"path":"/a","old_str":"x","new_str":"y","__proto__":{"p":1}}') as Json,
    ],
    ["mcp__github__create_issue", { title: "t" }],
    ["Bash", "not an object"],
  ];
  for (const [name, input] of raw) {
    it(`${name} ${JSON.stringify(input)} stays Raw`, () => {
      expect(ampToolToCommon(name, input)).toEqual({ name: "Raw", toolName: name, input });
    });
  }

  it("writes typed tools Amp cannot spell under their canonical names", () => {
    const tools: Tool[] = [
      { name: "Bash", input: { command: "ls", timeout: 10 } },
      { name: "Read", input: { file_path: "/a", offset: 3 } },
      { name: "MultiEdit", input: { file_path: "/a", edits: [] } },
      { name: "Glob", input: { pattern: "*", path: "/src" } },
      { name: "Task", input: { description: "d", prompt: "p", subagent_type: "general" } },
    ];
    for (const tool of tools) {
      expect(ampToolFromCommon(tool)).toEqual(toCanonical(tool));
      expect(ampToolToCommon(tool.name, tool.input as Json)).toEqual({
        name: "Raw",
        toolName: tool.name,
        input: tool.input,
      });
    }
  });

  it("writes a Raw that spells a typed Amp tool in the requested era", () => {
    const tool: Tool = { name: "Raw", toolName: "Bash", input: { cmd: "ls" } };
    expect(ampToolFromCommon(tool, { toolEra: "modern" })).toEqual({
      name: "shell_command",
      input: { command: "ls" },
    });
    expect(ampToolFromCommon(tool)).toEqual({ name: "Bash", input: { cmd: "ls" } });
  });
});
