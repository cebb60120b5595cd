import { jsonArbitrary, jsonObjectArbitrary, typedToolArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { Json } from "./json.js";
import { fromCanonical, toCanonical, toolInputSchemas, typedToolNames } from "./tools.js";

const nameArbitrary = fc.oneof(
  fc.constantFrom(...typedToolNames, "Raw", "mcp__x__y", "__proto__", "constructor"),
  fc.string(),
);

describe("toCanonical(fromCanonical(name, input)) = (name, input)", () => {
  it("holds for any name and any JSON input, key order included", () => {
    fc.assert(
      fc.property(nameArbitrary, fc.oneof(jsonArbitrary, jsonObjectArbitrary), (name, input) => {
        const back = toCanonical(fromCanonical(name, input));
        expect(back.name).toBe(name);
        expect(JSON.stringify(back.input)).toBe(JSON.stringify(input));
        expect(back.input).toStrictEqual(input);
      }),
      lawParameters(),
    );
  });
  it("holds for typed inputs with their keys shuffled", () => {
    fc.assert(
      fc.property(typedToolArbitrary, fc.func(fc.integer()), (tool, order) => {
        const { name, input } = toCanonical(tool);
        const entries = Object.entries(input as Record<string, Json>).sort(
          ([a], [b]) => order(a) - order(b),
        );
        const shuffled = Object.fromEntries(entries) as Json;
        const back = toCanonical(fromCanonical(name, shuffled));
        expect(Object.keys(back.input as object)).toEqual(Object.keys(shuffled as object));
      }),
      lawParameters(),
    );
  });
});

describe("fromCanonical", () => {
  it("picks the typed variant for an exact fit", () => {
    expect(fromCanonical("Read", { file_path: "/a", offset: 3 })).toEqual({
      name: "Read",
      input: { file_path: "/a", offset: 3 },
    });
    expect(fromCanonical("Bash", { command: "ls", workdir: "/tmp" }).name).toBe("Bash");
  });
  it("falls back to Raw on an unknown key, a wrong type or a missing key", () => {
    expect(fromCanonical("Read", { file_path: "/a", pages: "1" })).toEqual({
      name: "Raw",
      toolName: "Read",
      input: { file_path: "/a", pages: "1" },
    });
    expect(fromCanonical("Read", { file_path: 1 }).name).toBe("Raw");
    expect(fromCanonical("Write", { file_path: "/a" }).name).toBe("Raw");
    expect(fromCanonical("Read", { file_path: "/a", offset: 1.5 }).name).toBe("Raw");
    expect(fromCanonical("Edit", "not an object").name).toBe("Raw");
  });
  it("treats a __proto__ key as an unknown key, not as the prototype", () => {
    const input = JSON.parse('{"file_path":"/a","__proto__":{"x":1}}') as Json;
    const tool = fromCanonical("Read", input);
    expect(tool.name).toBe("Raw");
    expect(Object.hasOwn(toCanonical(tool).input as object, "__proto__")).toBe(true);
  });
  it("does not treat inherited names as tools", () => {
    expect(fromCanonical("toString", {}).name).toBe("Raw");
    expect(fromCanonical("constructor", {}).name).toBe("Raw");
  });
  it("has a schema for every tool the issue names", () => {
    for (const name of [
      "Read",
      "Write",
      "Edit",
      "MultiEdit",
      "Bash",
      "Glob",
      "Grep",
      "WebFetch",
      "WebSearch",
      "TodoWrite",
      "Task",
      "Command",
    ]) {
      expect(Object.hasOwn(toolInputSchemas, name)).toBe(true);
    }
  });
});

describe("the typed tools' input schemas are built when first asked for", () => {
  it("a fresh import holds getters; asking for one builds that one alone, once", async () => {
    vi.resetModules();
    const fresh = await import("./tools.js");
    const built = (name: string) =>
      "value" in (Object.getOwnPropertyDescriptor(fresh.toolInputSchemas, name) ?? {});
    expect(fresh.typedToolNames.filter(built)).toEqual([]);
    // Classifying a Bash call builds Bash's schema and no other.
    expect(fresh.fromCanonical("Bash", { command: "ls" }).name).toBe("Bash");
    expect(fresh.typedToolNames.filter(built)).toEqual(["Bash"]);
    // Control: the built schema is kept, not built again.
    expect(fresh.toolInputSchemas.Bash).toBe(fresh.toolInputSchemas.Bash);
    // The union parses through its lazy wrapper, and builds the rest.
    expect(fresh.ToolSchema.safeParse({ name: "Read", input: { file_path: "a" } }).success).toBe(
      true,
    );
    expect(fresh.typedToolNames.filter(built)).toEqual(fresh.typedToolNames);
  });
});
