// The light sniffs (sniffs.ts) against the registry: the same harnesses in
// the same detection order, the same names, and each sniff its codec's very
// detect, so detection by sniff then load gives the harness the registry's
// detect gives, for every fixture, every writer's output, their heads and
// generated text.
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "./index.js";
import { loadHarness } from "./lazy.js";
import { harnessIdOf, harnessSniffs, sniffHarness } from "./sniffs.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../fixtures");

/** Every session-like file under fixtures/, of every harness. */
function fixtureTexts(): string[] {
  const texts: string[] = [];
  const walk = (directory: string) => {
    for (const name of readdirSync(directory)) {
      const file = path.join(directory, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(json|jsonl)$/.test(name) && statSync(file).size < 4_000_000)
        texts.push(readFileSync(file, "utf8"));
    }
  };
  walk(fixtures);
  return texts;
}

/** What each writer makes of generated transcripts. */
function writtenTexts(): string[] {
  const texts: string[] = [];
  const transcripts = fc.sample(transcriptArbitrary(), { numRuns: 20, seed: 34 });
  for (const harness of defaultRegistry.harnesses) {
    const options = harness.writeOptions?.({}) ?? {};
    for (const transcript of transcripts)
      texts.push(harness.codec.serialize(harness.codec.fromCommon(transcript, options)));
  }
  return texts;
}

/** The registry's detection as an id, undefined where it finds none. */
function registryDetect(text: string): string | undefined {
  try {
    return defaultRegistry.detect(text).id;
  } catch {
    return undefined;
  }
}

const corpus = [...fixtureTexts(), ...writtenTexts()];
// Heads and cut lines: what a sniff reads first, and where a cut makes it look again.
const inputs = [
  ...corpus,
  ...corpus.flatMap((text) => [
    text.slice(0, 200),
    text.slice(0, 4000),
    text.slice(0, text.length >> 1),
  ]),
  ...corpus.map((text) => `\n\n${text}`),
];

describe("the light sniffs", () => {
  it("list the registry's harnesses in its detection order, each with its id and aliases", () => {
    expect(harnessSniffs.map((entry) => entry.id)).toEqual(
      defaultRegistry.harnesses.map((harness) => harness.id),
    );
    for (const harness of defaultRegistry.harnesses)
      expect(harnessSniffs.find((entry) => entry.id === harness.id)?.names).toEqual([
        harness.id,
        ...harness.aliases,
      ]);
  });

  it("are each harness's codec's own detect (one detector, not two)", () => {
    for (const harness of defaultRegistry.harnesses)
      expect(harnessSniffs.find((entry) => entry.id === harness.id)?.sniff).toBe(
        harness.codec.detect,
      );
  });

  it("agree with each codec's detect on fixtures, writers' output, their heads and generated text", () => {
    expect(corpus.length).toBeGreaterThan(100);
    const generated = [
      ...fc.sample(fc.string({ maxLength: 300 }), { numRuns: 300, seed: 5 }),
      ...fc.sample(fc.json({ maxDepth: 3 }), { numRuns: 300, seed: 6 }),
      ...fc
        .sample(fc.array(fc.json({ maxDepth: 2 }), { maxLength: 4 }), { numRuns: 200, seed: 7 })
        .map((lines) => lines.join("\n")),
    ];
    for (const text of [...inputs, ...generated]) {
      for (const harness of defaultRegistry.harnesses) {
        const entry = harnessSniffs.find((sniff) => sniff.id === harness.id);
        expect(entry?.sniff(text), `${harness.id}: ${text.slice(0, 80)}`).toBe(
          harness.codec.detect(text),
        );
      }
      expect(sniffHarness(text)).toBe(registryDetect(text));
    }
  });

  it("tell every harness apart (control: each is recognized somewhere and refused elsewhere)", () => {
    const found = new Set(inputs.map((text) => sniffHarness(text)));
    for (const harness of defaultRegistry.harnesses) {
      expect(found.has(harness.id), harness.id).toBe(true);
      const entry = harnessSniffs.find((sniff) => sniff.id === harness.id);
      expect(
        inputs.some((text) => !entry?.sniff(text)),
        harness.id,
      ).toBe(true);
    }
    // Control: a list in another order detects some input differently from the registry.
    const reversed = [...harnessSniffs].reverse();
    expect(
      inputs.some(
        (text) => reversed.find((entry) => entry.sniff(text))?.id !== registryDetect(text),
      ),
    ).toBe(true);
  });

  it("name the harness the registry finds by any spelling of an id or alias, and none for another", () => {
    for (const harness of defaultRegistry.harnesses)
      for (const name of [harness.id, ...harness.aliases])
        for (const spelled of [name, name.toUpperCase(), name.replaceAll("_", "-"), ` ${name} `])
          expect(harnessIdOf(spelled)).toBe(defaultRegistry.find(spelled).id);
    for (const unknown of ["claud", "", "ampp", "stream json"]) {
      expect(harnessIdOf(unknown)).toBeUndefined();
      expect(() => defaultRegistry.find(unknown)).toThrow();
    }
  });

  it("load, by the id a sniff gives, the registry's own harness", async () => {
    for (const harness of defaultRegistry.harnesses)
      expect(await loadHarness(harness.id)).toBe(harness);
    expect(loadHarness("no-such-harness")).toBeUndefined();
  });
});
