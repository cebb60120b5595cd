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

  it("numbers strings as a Map would when sized for few or many (pre-sized, or growing from 1)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", maxLength: 70 }), { maxLength: 600 }),
        fc.constantFrom(0, 1, 7, 1 << 12),
        (texts, expected) => {
          const ids = new StringIds(expected);
          const map = new Map<string, number>();
          for (const text of texts) {
            const id = map.get(text) ?? map.size;
            map.set(text, id);
            expect(ids.id(text)).toBe(id);
          }
          for (const [text, id] of map) {
            expect(ids.find(text)).toBe(id);
            expect(ids.text(id)).toBe(text);
          }
        },
      ),
      lawParameters(100),
    );
  });

  it("keeps two strings of one hash apart (a full 32-bit collision, found by a birthday search)", () => {
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    // Random-looking strings of 8 characters (a fixed linear congruential sequence): ~2^16 of them.
    let state = 12345;
    const next = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state >>> 16;
    };
    while (pair === undefined) {
      let text = "";
      for (let index = 0; index < 8; index += 1) text += String.fromCharCode(0x61 + (next() % 26));
      const hash = StringIds.hash(text);
      const other = seen.get(hash);
      if (other !== undefined) pair = [other, text];
      else seen.set(hash, text);
    }
    const [first, second] = pair;
    expect(StringIds.hash(first)).toBe(StringIds.hash(second));
    const ids = new StringIds(4);
    expect(ids.id(first)).toBe(0);
    expect(ids.find(second)).toBe(-1);
    expect(ids.id(second)).toBe(1);
    expect([ids.find(first), ids.find(second), ids.id(first)]).toEqual([0, 1, 0]);
  });

  /** Two strings of one length that differ in one character never share a hash. */
  function expectEveryCharacterCounts(hash: (text: string) => number): void {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.integer({ min: 1, max: 0xffff }),
        (text, at, delta) => {
          const index = at % text.length;
          const changed =
            text.slice(0, index) +
            String.fromCharCode((text.charCodeAt(index) + delta) & 0xffff) +
            text.slice(index + 1);
          expect(hash(changed)).not.toBe(hash(text));
        },
      ),
      lawParameters(300),
    );
  }

  it("the hash depends on every character: one changed character changes it", () => {
    expectEveryCharacterCounts(StringIds.hash);
    // Control: a hash that reads only the first character of each pair.
    const lossy = (text: string) => {
      let hash = 0x811c9dc5;
      for (let index = 0; index < text.length; index += 2)
        hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
      return hash >>> 0;
    };
    expect(() => expectEveryCharacterCounts(lossy)).toThrow();
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
