// The reliability suite builds from the registry and nothing else: a toy
// harness defined only in this file, added with `defaultRegistry.with`,
// becomes a fuzz target (its own samples, its parser fuzzed, its writer
// judged on every other parser's output) and a store under fault, without
// editing any other file. A toy whose parser lets a TypeError escape makes
// its fuzz property fail: the target is really exercised.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type AnyHarness,
  type CommonDocument,
  commonCodec,
  type Store,
  TxcriptError,
  writeFileAtomic,
} from "@txcript/core";
import { defaultRegistry } from "@txcript/harnesses";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzProperty } from "./fuzz-properties.js";
import { checkText } from "./oracle.js";
import { parsersOf, samplesFor } from "./parsers.js";
import { fileLayout, storesUnderFaultOf } from "./stores.js";

const marker = "#toy\n";

/** A toy store: one `<id>.toy` file per session under its root. */
function toyStore(root: string): Store<CommonDocument> {
  const file = (id: string) => {
    if (!/^[\w-]+$/.test(id)) throw new TxcriptError("UNSAFE_PATH", "not a toy id");
    return path.join(root, `${id}.toy`);
  };
  return {
    harness: "toy",
    root,
    async *discover() {
      for (const name of await fs.readdir(root).catch(() => []))
        if (name.endsWith(".toy"))
          yield { id: name.slice(0, -4), path: path.join(root, name) } as never;
    },
    load: async (id) => toyHarness.codec.parse(await fs.readFile(file(id), "utf8")),
    async save(native) {
      const target = file(native.meta.id.replace(/[^\w-]/g, "-"));
      await writeFileAtomic(target, toyHarness.codec.serialize(native), { root });
      return { id: path.basename(target, ".toy"), path: target };
    },
    delete: (id) => fs.unlink(file(id)),
  };
}

function toyHarnessWith(parse: (text: string) => CommonDocument): AnyHarness {
  return {
    id: "toy",
    displayName: "toy session",
    aliases: ["toy-harness"],
    extension: ".toy",
    codec: {
      id: "toy",
      displayName: "toy session",
      detect: (text) => text.startsWith(marker),
      parse: (text, options) => {
        if (!text.startsWith(marker))
          throw new TxcriptError("INVALID_DOCUMENT", "not a toy session", {
            location: { ...options, line: 1 },
          });
        return parse(text);
      },
      serialize: (native) => `${marker}${commonCodec.serialize(native)}`,
      toCommon: (native, options) => commonCodec.toCommon(native, options),
      fromCommon: (transcript, options) => commonCodec.fromCommon(transcript, options),
      losses: [],
    },
    project: (transcript) => transcript,
    store: (_environment, root) => toyStore(root ?? "/nonexistent"),
    continueRefusal: { reason: "it is a toy", instead: "use a real harness" },
  };
}

const toyHarness = toyHarnessWith((text) =>
  commonCodec.parse(text.slice(marker.length), { file: "fuzz-input.txt" }),
);

describe("a harness added to the registry is fuzzed and stored under fault", () => {
  const targets = parsersOf(defaultRegistry.with(toyHarness).harnesses);
  const toy = targets.find((target) => target.id === "toy");

  it("is a fuzz target with samples in its own format", () => {
    expect(targets.map((target) => target.id)).toEqual([
      ...defaultRegistry.harnesses.map((harness) => harness.id),
      "toy",
    ]);
    if (toy === undefined) throw new Error("no toy target");
    const samples = samplesFor(toy, targets);
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) expect(sample.text.startsWith(marker), sample.name).toBe(true);
  });

  it("is fuzzed, and its writer judges every other parser's output", () => {
    const property = fuzzProperty("toy", "mutated-sample", targets);
    expect(property).toBeDefined();
    if (property) fc.assert(property, { numRuns: 50, seed: 7 });
    // Another parser's text goes through the toy writer too.
    const amp = targets.find((target) => target.id === "amp");
    if (amp === undefined) throw new Error("no amp target");
    const [sample] = samplesFor(amp, targets);
    if (sample === undefined) throw new Error("no Amp sample");
    expect(checkText(amp, sample.text, { targets }).kind).toBe("read");
  });

  it("fails its fuzz property when its parser lets a TypeError escape (control)", () => {
    const broken = toyHarnessWith(() => {
      throw new TypeError("cannot read properties of undefined");
    });
    const brokenTargets = parsersOf(defaultRegistry.with(broken).harnesses);
    const property = fuzzProperty("toy", "mutated-sample", brokenTargets);
    expect(property).toBeDefined();
    if (property === undefined) return;
    const details = fc.check(property, { numRuns: 50, seed: 7 });
    expect(details.failed).toBe(true);
    expect(String(details.errorInstance)).toMatch(
      /toy\.parse let a non-TxcriptError escape: TypeError/,
    );
  });

  it("is a store under fault with one file per session", async () => {
    const subjects = storesUnderFaultOf(defaultRegistry.with(toyHarness).harnesses);
    const subject = subjects.find((candidate) => candidate.harness === "toy");
    if (subject === undefined) throw new Error("the toy store is not under fault");
    expect(subject.sampleText("a payload")).toContain("a payload");
    expect(await fileLayout(subject)).toEqual({ perFile: true });
  });
});
