import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IntColumn, NumberColumn, StringIds } from "./stream-intern.js";
import { lawParameters } from "./testing/index.js";

describe("StringIds", () => {
  it("numbers strings as a Map would, and gives them back", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.constantFrom("", "a", "é😀")),
          {
            maxLength: 3000,
          },
        ),
        (texts) => {
          const ids = new StringIds();
          const map = new Map<string, number>();
          for (const text of texts) {
            expect(ids.find(text)).toBe(map.get(text) ?? -1);
            const expected = map.get(text) ?? map.size;
            map.set(text, expected);
            expect(ids.id(text)).toBe(expected);
          }
          expect(ids.size).toBe(map.size);
          for (const [text, id] of map) {
            expect(ids.find(text)).toBe(id);
            expect(ids.text(id)).toBe(text);
          }
          expect(ids.find("never added \u0000")).toBe(-1);
        },
      ),
      lawParameters(100),
    );
  });

  it("IntColumn grows and keeps its values", () => {
    const column = new IntColumn(2);
    for (let index = 0; index < 5000; index += 1) column.push(index * 3 - 7);
    expect(column.length).toBe(5000);
    expect(column.at(4999)).toBe(4999 * 3 - 7);
    column.set(3, 42);
    expect(column.at(3)).toBe(42);
  });

  it("NumberColumn grows and keeps its values, past int32 and fractions", () => {
    const column = new NumberColumn(1);
    const values = [0, -1, 2 ** 31, 2 ** 40 + 3, 0.5, Number.MAX_SAFE_INTEGER];
    for (let index = 0; index < 5000; index += 1)
      column.push((values[index % values.length] as number) + index);
    expect(column.length).toBe(5000);
    for (let index = 0; index < 5000; index += 1)
      expect(column.at(index)).toBe((values[index % values.length] as number) + index);
  });
});
