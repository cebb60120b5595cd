// Derives fast-check arbitraries from the zod schemas the model is written
// in, so the typed tools' generators are never written twice. Covers the
// zod kinds the tool schemas use; anything else is a programming error.
import fc from "fast-check";
import type { z } from "zod";

interface Def {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, string>;
  options?: z.ZodType[];
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

export function arbitraryFromSchema(
  schema: z.ZodType,
  leaf: { string: fc.Arbitrary<string> },
): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return leaf.string;
    case "number":
      return def.format === "safeint"
        ? fc.integer({ min: -1, max: 1_000_000 })
        : fc
            .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
            .map((value) => (Object.is(value, -0) ? 0 : value));
    case "boolean":
      return fc.boolean();
    case "literal":
      return fc.constantFrom(...(def.values ?? []));
    case "enum":
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case "array":
      return fc.array(arbitraryFromSchema(def.element as z.ZodType, leaf), { maxLength: 3 });
    case "union":
      return fc.oneof(...(def.options ?? []).map((option) => arbitraryFromSchema(option, leaf)));
    case "object": {
      const required: Record<string, fc.Arbitrary<unknown>> = {};
      const optional: string[] = [];
      for (const [key, value] of Object.entries(def.shape ?? {})) {
        const inner = defOf(value);
        if (inner.type === "optional") {
          optional.push(key);
          required[key] = arbitraryFromSchema(inner.innerType as z.ZodType, leaf);
        } else {
          required[key] = arbitraryFromSchema(value, leaf);
        }
      }
      const keys = Object.keys(required).filter((key) => !optional.includes(key));
      return fc.record(required, { requiredKeys: keys });
    }
    default:
      throw new Error(`arbitraryFromSchema: zod kind "${def.type}" is not supported`);
  }
}
