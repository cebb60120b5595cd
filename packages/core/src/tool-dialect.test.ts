import { jsonArbitrary, jsonObjectArbitrary, typedToolArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Json, JsonObject } from "./json.js";
import {
  type RenamedToolDialect,
  type RenamedToolSpec,
  renamedToolDialect,
  renameKeys,
} from "./tool-dialect.js";
import { fromCanonical, type Tool, toCanonical } from "./tools.js";

// A dialect of this test's own: renamed keys, kept keys, two rows under one
// native name, and a canonical tool (Edit) with no row at all.
const specs: readonly RenamedToolSpec[] = [
  {
    native: "read_file",
    canonical: "Read",
    keys: [
      ["path", "file_path"],
      ["line_offset", "offset"],
      ["n_lines", "limit"],
    ],
  },
  {
    native: "shell",
    canonical: "Bash",
    keys: [
      ["cmd", "command"],
      ["description", "description"],
    ],
  },
  {
    native: "find",
    canonical: "Glob",
    keys: [
      ["pattern", "pattern"],
      ["dir", "path"],
    ],
  },
  {
    native: "find",
    canonical: "Grep",
    keys: [
      ["pattern", "pattern"],
      ["dir", "path"],
      ["include", "glob"],
    ],
  },
  { native: "ls", canonical: "LS", keys: [["path", "path"]] },
];
const dialect = renamedToolDialect(specs);
const nativeNames = [...new Set(specs.map((spec) => spec.native))];

/** Whether a typed tool's keys are all ones some row of its canonical name renames. */
function rowFor(tool: Tool): RenamedToolSpec | undefined {
  const keys = Object.keys(tool.input as JsonObject);
  return specs.find(
    (spec) =>
      spec.canonical === tool.name &&
      keys.every((key) => spec.keys.some(([, canonical]) => canonical === key)),
  );
}

/** The law: writing then reading any typed tool gives it back, key order included. */
function roundTrip(under: RenamedToolDialect) {
  return fc.property(typedToolArbitrary, (tool) => {
    const written = under.fromTool(tool);
    const back = under.toTool(written.name, written.input);
    expect(back).toEqual(tool);
    expect(JSON.stringify(back)).toBe(JSON.stringify(tool));
  });
}

describe("renamedToolDialect", () => {
  it("reading what it writes is the identity on every typed tool", () => {
    fc.assert(roundTrip(dialect), lawParameters());
  });

  it("an exact fit is written under the native name with the keys renamed in order; any other under its canonical form", () => {
    fc.assert(
      fc.property(typedToolArbitrary, (tool) => {
        const written = dialect.fromTool(tool);
        const row = rowFor(tool);
        if (row === undefined) {
          expect(written).toStrictEqual(toCanonical(tool));
          return;
        }
        expect(written.name).toBe(row.native);
        const nativeOf = (key: string) => row.keys.find(([, canonical]) => canonical === key)?.[0];
        expect(Object.keys(written.input as JsonObject)).toEqual(
          Object.keys(tool.input as JsonObject).map(nativeOf),
        );
      }),
      lawParameters(),
    );
  });

  it("a native call that does not fit exactly stays Raw under its native name, its input verbatim", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...nativeNames),
        fc.oneof(jsonArbitrary, jsonObjectArbitrary),
        (name, input) => {
          const tool = dialect.toTool(name, input);
          if (tool.name !== "Raw") {
            // Typed only when a row of that name renames it into its canonical schema.
            const fits = specs.some((spec) => {
              if (spec.native !== name || input === null || typeof input !== "object") return false;
              const renamed = renameKeys(input as JsonObject, spec.keys);
              return renamed !== undefined && fromCanonical(spec.canonical, renamed).name !== "Raw";
            });
            expect(fits).toBe(true);
            return;
          }
          expect(tool).toEqual({ name: "Raw", toolName: name, input });
          expect(tool.input).toBe(input);
        },
      ),
      lawParameters(),
    );
  });

  it("examples: renames, a second row under one name, an extra key, a wrong type, an unknown name", () => {
    expect(dialect.toTool("read_file", { path: "a.ts", n_lines: 3 })).toEqual({
      name: "Read",
      input: { file_path: "a.ts", limit: 3 },
    });
    // Glob's row refuses `include`; Grep's row under the same name takes it.
    expect(dialect.toTool("find", { pattern: "x", include: "*.ts" })).toEqual({
      name: "Grep",
      input: { pattern: "x", glob: "*.ts" },
    });
    expect(dialect.toTool("find", { pattern: "x" })).toEqual({
      name: "Glob",
      input: { pattern: "x" },
    });
    const extra = { path: "a.ts", encoding: "utf8" };
    expect(dialect.toTool("read_file", extra)).toEqual({
      name: "Raw",
      toolName: "read_file",
      input: extra,
    });
    expect(dialect.toTool("read_file", { path: 7 })).toEqual({
      name: "Raw",
      toolName: "read_file",
      input: { path: 7 },
    });
    expect(dialect.toTool("shell", "ls")).toEqual({ name: "Raw", toolName: "shell", input: "ls" });
    // Not a native name: the canonical reading (typed Read, or Raw).
    expect(dialect.toTool("Read", { file_path: "a.ts" })).toEqual({
      name: "Read",
      input: { file_path: "a.ts" },
    });
    expect(dialect.toTool("mcp__x", { a: 1 })).toEqual({
      name: "Raw",
      toolName: "mcp__x",
      input: { a: 1 },
    });
    // Written: Bash with a key the row lacks, and Edit with no row, stay canonical.
    const bash: Tool = { name: "Bash", input: { command: "ls", timeout: 5 } };
    expect(dialect.fromTool(bash)).toEqual({ name: "Bash", input: { command: "ls", timeout: 5 } });
    expect(
      dialect.fromTool({ name: "Bash", input: { description: "list", command: "ls" } }),
    ).toEqual({ name: "shell", input: { description: "list", cmd: "ls" } });
    expect(dialect.isNative("find")).toBe(true);
    expect(dialect.isNative("Glob")).toBe(false);
  });

  it("accepts: a refused value stays Raw when read and canonical when written", () => {
    const positive = renamedToolDialect(specs, {
      accepts: (canonical, input) =>
        canonical !== "Read" || !Object.hasOwn(input, "offset") || (input.offset as number) >= 1,
    });
    expect(positive.toTool("read_file", { path: "a", line_offset: -2 })).toEqual({
      name: "Raw",
      toolName: "read_file",
      input: { path: "a", line_offset: -2 },
    });
    const read: Tool = { name: "Read", input: { file_path: "a", offset: -2 } };
    expect(positive.fromTool(read)).toEqual({
      name: "Read",
      input: { file_path: "a", offset: -2 },
    });
    expect(positive.fromTool({ name: "Read", input: { file_path: "a", offset: 2 } })).toEqual({
      name: "read_file",
      input: { path: "a", line_offset: 2 },
    });
    fc.assert(roundTrip(positive), lawParameters());
    // Control: without accepts, the negative offset is written natively (the same dialect as `dialect`).
    expect(dialect.fromTool(read).name).toBe("read_file");
  });

  it("control: the law fails for a dialect whose writer loses key order, or whose table is not one to one", () => {
    const reordering: RenamedToolDialect = {
      ...dialect,
      fromTool(tool) {
        const written = dialect.fromTool(tool);
        if (
          written.input === null ||
          typeof written.input !== "object" ||
          Array.isArray(written.input)
        )
          return written;
        const entries = Object.entries(written.input as JsonObject).reverse();
        return { name: written.name, input: Object.fromEntries(entries) as Json };
      },
    };
    expect(fc.check(roundTrip(reordering), { seed: 1, numRuns: 300 }).failed).toBe(true);
    // Two canonical keys under one native key: writing folds them, reading cannot tell them apart.
    const manyToOne = renamedToolDialect([
      {
        native: "read_file",
        canonical: "Read",
        keys: [
          ["path", "file_path"],
          ["path", "offset"],
          ["n", "limit"],
        ],
      },
    ]);
    expect(fc.check(roundTrip(manyToOne), { seed: 1, numRuns: 300 }).failed).toBe(true);
  });
});

describe("renameKeys", () => {
  it("renames in order, refuses an unknown key, and keeps a __proto__ key an own key", () => {
    expect(
      renameKeys({ b: 1, a: 2 }, [
        ["a", "x"],
        ["b", "y"],
      ]),
    ).toEqual({ y: 1, x: 2 });
    expect(
      Object.keys(
        renameKeys({ b: 1, a: 2 }, [
          ["a", "x"],
          ["b", "y"],
        ]) ?? {},
      ),
    ).toEqual(["y", "x"]);
    expect(renameKeys({ a: 1, c: 2 }, [["a", "x"]])).toBeUndefined();
    const proto = JSON.parse('{"k": 1}') as JsonObject;
    const renamed = renameKeys(proto, [["k", "__proto__"]]) as JsonObject;
    expect(Object.hasOwn(renamed, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(renamed)).toBe(Object.prototype);
  });
});
