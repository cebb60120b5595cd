import { jsonArbitrary, jsonObjectArbitrary, typedToolArbitrary } from "@txcript/core/arbitraries";
import { lawParameters, lawRuns } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import type { Json } from "./json.js";
import { fitsToolInput, type InputShape, toolInputShapes, type ValueShape } from "./tool-inputs.js";
import {
  fromCanonical,
  type TypedToolName,
  toCanonical,
  toolInputSchemas,
  typedToolNames,
} from "./tools.js";

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
  it("a fresh import holds getters; classifying a call builds none; asking for one builds that one alone, once", async () => {
    vi.resetModules();
    const fresh = await import("./tools.js");
    const built = (name: string) =>
      "value" in (Object.getOwnPropertyDescriptor(fresh.toolInputSchemas, name) ?? {});
    expect(fresh.typedToolNames.filter(built)).toEqual([]);
    // Classifying a Bash call reads tool-inputs.ts's shapes, not a zod schema.
    expect(fresh.fromCanonical("Bash", { command: "ls" }).name).toBe("Bash");
    expect(fresh.typedToolNames.filter(built)).toEqual([]);
    // Asking for Bash's schema builds it and no other, and keeps it.
    expect(fresh.toolInputSchemas.Bash.safeParse({ command: "ls" }).success).toBe(true);
    expect(fresh.typedToolNames.filter(built)).toEqual(["Bash"]);
    expect(fresh.toolInputSchemas.Bash).toBe(fresh.toolInputSchemas.Bash);
    // The union parses through its lazy wrapper, and builds the rest.
    expect(fresh.ToolSchema.safeParse({ name: "Read", input: { file_path: "a" } }).success).toBe(
      true,
    );
    expect(fresh.typedToolNames.filter(built)).toEqual(fresh.typedToolNames);
  });
});

/** The shape a zod schema's definition describes, in tool-inputs.ts's terms; anything else is an error. */
function shapeOf(schema: z.ZodType): ValueShape {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const keys = Object.keys(def).sort().join(",");
  if (def.type === "string" && keys === "type") return "string";
  if (def.type === "boolean" && keys === "type") return "boolean";
  if (def.type === "number" && def.format === "safeint" && def.check === "number_format")
    return "int";
  if (def.type === "array" && keys === "element,type")
    return { array: shapeOf(def.element as z.ZodType) };
  if (def.type === "object" && keys === "catchall,shape,type") {
    const catchall = def.catchall as z.ZodType;
    if (catchall._zod.def.type !== "never") throw new Error("an object that is not strict");
    return { object: objectShapeOf(def.shape as Record<string, z.ZodType>) };
  }
  throw new Error(`a schema tool-inputs.ts does not model: ${JSON.stringify(def)}`);
}

function objectShapeOf(shape: Record<string, z.ZodType>): InputShape {
  const out: Record<string, InputShape[string]> = {};
  for (const [key, field] of Object.entries(shape)) {
    const def = field._zod.def as unknown as { type: string; innerType?: z.ZodType };
    out[key] =
      def.type === "optional" && def.innerType !== undefined
        ? { optional: shapeOf(def.innerType) }
        : shapeOf(field);
  }
  return out;
}

describe("tool-inputs.ts's shapes are the zod schemas' (no zod on the read path, decision 0018)", () => {
  it("every typed tool's shape is the one its zod schema's definition describes, same names, same order", () => {
    expect(Object.keys(toolInputShapes)).toEqual(Object.keys(toolInputSchemas));
    for (const name of typedToolNames)
      expect({ name, shape: shapeOf(toolInputSchemas[name]) }).toEqual({
        name,
        shape: { object: toolInputShapes[name] },
      });
  });

  it("the derivation sees a difference (control: a changed zod schema is not the shape)", () => {
    expect(() => shapeOf(z.strictObject({ offset: z.number() }))).toThrow(/does not model/);
    expect(() => shapeOf(z.object({ file_path: z.string() }))).toThrow(/does not model/);
    expect(() => shapeOf(z.strictObject({ a: z.looseObject({}) }))).toThrow(/not strict/);
    expect(() => shapeOf(z.strictObject({ file_path: z.string().min(1) }))).toThrow(
      /does not model/,
    );
    expect(shapeOf(z.strictObject({ file_path: z.string(), limit: z.int() }))).not.toEqual({
      object: toolInputShapes.Read,
    });
  });

  // Inputs near a fit: a fitting input built from the shape, then maybe
  // one change (a key dropped, a key added, a value of another kind, an
  // integer at or past the safe range, an array item broken).
  const otherValue: fc.Arbitrary<Json> = fc.oneof(
    fc.string(),
    fc.boolean(),
    fc.integer(),
    fc.constantFrom(2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1.5, -0, 1e21, 0),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constant(null),
    fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
    jsonArbitrary,
  );
  const fitting = (shape: ValueShape): fc.Arbitrary<Json> => {
    if (shape === "string") return fc.string();
    if (shape === "boolean") return fc.boolean();
    if (shape === "int")
      return fc.oneof(fc.integer(), fc.constantFrom(2 ** 53 - 1, -(2 ** 53 - 1), -0));
    if ("array" in shape) return fc.array(fitting(shape.array), { maxLength: 3 });
    return fittingObject(shape.object);
  };
  const fittingObject = (shape: InputShape): fc.Arbitrary<Json> => {
    const fields = Object.entries(shape).map(([key, field]) =>
      typeof field === "object" && "optional" in field
        ? fc
            .option(fitting(field.optional), { nil: undefined })
            .map((value) => [key, value] as const)
        : fitting(field).map((value) => [key, value] as const),
    );
    return fc
      .tuple(...fields)
      .map((pairs) => Object.fromEntries(pairs.filter(([, value]) => value !== undefined)) as Json);
  };
  const change = (input: Json, keys: readonly string[]): fc.Arbitrary<Json> => {
    const object = input as Record<string, Json>;
    const added = fc
      .tuple(fc.constantFrom("extra", "__proto__", ...keys), otherValue)
      .map(([key, value]) => JSON.parse(JSON.stringify({ ...object, [key]: value })) as Json);
    if (keys.length === 0) return fc.oneof(fc.constant(input), added);
    return fc.oneof(
      fc.constant(input),
      added,
      fc.constantFrom(...keys).map((key) => {
        const { [key]: _dropped, ...rest } = object;
        return rest;
      }),
      fc.tuple(fc.constantFrom(...keys), otherValue, fc.nat(2)).map(([key, value, index]) => {
        const current = object[key];
        if (Array.isArray(current) && current.length > 0) {
          const items = [...current];
          items[index % items.length] = value;
          return { ...object, [key]: items };
        }
        return { ...object, [key]: value };
      }),
    );
  };
  const nearInput = (name: TypedToolName): fc.Arbitrary<Json> => {
    const keys = Object.keys(toolInputShapes[name]);
    return fittingObject(toolInputShapes[name]).chain((input) => change(input, keys));
  };

  it("fitsToolInput gives zod's verdict on inputs near a fit, typed inputs, and any JSON", () => {
    const inputs = (name: TypedToolName) =>
      fc.oneof(nearInput(name), jsonArbitrary, jsonObjectArbitrary);
    fc.assert(
      fc.property(
        fc
          .constantFrom(...typedToolNames)
          .chain((name) => fc.tuple(fc.constant(name), inputs(name))),
        ([name, input]) => {
          expect(fitsToolInput(name, input)).toBe(toolInputSchemas[name].safeParse(input).success);
        },
      ),
      lawParameters(lawRuns(2000)),
    );
    fc.assert(
      fc.property(typedToolArbitrary, (tool) => {
        const { name, input } = toCanonical(tool);
        expect(fitsToolInput(name as TypedToolName, input)).toBe(true);
      }),
      lawParameters(),
    );
  });

  it("the generated near inputs reach both verdicts for every tool (control: the property is not vacuous)", () => {
    for (const name of typedToolNames) {
      const verdicts = new Set(
        fc
          .sample(nearInput(name), { numRuns: 3000, seed: 7 })
          .map((input) => toolInputSchemas[name].safeParse(input).success),
      );
      expect({ name, verdicts: [...verdicts].sort() }).toEqual({ name, verdicts: [false, true] });
    }
  });
});
