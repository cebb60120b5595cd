// Hostile inputs for every harness of the registry, made at test time from
// the harness's own writer (so a harness added to the registry is covered
// without a new corpus file): its session with a line (or the document) cut
// in half, a line of garbage in it, and an empty file, each read with
// `--from <harness>`. Each harness either refuses the file — the library
// with a TxcriptError naming it; the built CLI with exit 1 and one
// `txcript:` line naming it, no internal error, nothing written — or reads
// it and names the damage: the read leg reports a loss, and `export` prints
// its code. Never a silent read. The input is never changed. The
// checked-in corpus (fixtures/hostile/) stays the exact, reviewed one.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { builtBin, type Home, listFiles, makeHome, removeHome, sha256, txcript } from "./cli.js";
import { libraryOutcome, readWarnings } from "./hostile-library.js";
import { parsers, samplesOf } from "./parsers.js";

interface Variant {
  name: string;
  make: (text: string) => string;
}

const variants: Variant[] = [
  {
    // A whole document cut in half; in JSON lines a line in the middle cut in half (a cut
    // final line is a harness's ordinary crash shape, which a reader may skip with a loss).
    name: "cut in half",
    make: (text) => {
      const lines = text.split("\n");
      if (lines.filter(Boolean).length < 3) return text.slice(0, Math.floor(text.length / 2));
      const at = Math.floor(lines.length / 2);
      const line = lines[at] as string;
      return [
        ...lines.slice(0, at),
        line.slice(0, Math.floor(line.length / 2)),
        ...lines.slice(at + 1),
      ].join("\n");
    },
  },
  {
    name: "a garbage line in the middle",
    make: (text) => {
      const lines = text.split("\n");
      const at = Math.max(1, Math.floor(lines.length / 2));
      return [...lines.slice(0, at), '{"oops": tru', ...lines.slice(at)].join("\n");
    },
  },
  { name: "empty", make: () => "" },
];

const targets = parsers.filter((parser) => parser.id !== "common");

let home: Home;
beforeAll(async () => {
  await builtBin();
});
beforeEach(async () => {
  home = await makeHome();
});
afterEach(async () => {
  await removeHome(home);
});

describe("every registered harness refuses its own session made hostile, or names the damage", () => {
  it("covers every harness of the registry but common", () => {
    expect(targets.length).toBeGreaterThanOrEqual(3);
  });
  for (const target of targets) {
    const writerSample = samplesOf(target.id).find((sample) =>
      sample.name.includes(" written by "),
    );
    for (const variant of variants) {
      it.skipIf(writerSample === undefined)(
        `${target.id}: ${variant.name}${writerSample === undefined ? " (skipped: its writer wrote no sample)" : ""}`,
        async () => {
          if (writerSample === undefined) return;
          const hostile = variant.make(writerSample.text);
          expect(hostile).not.toBe(writerSample.text);
          const file = `hostile${target.harness.extension}`;
          const input = path.join(home.work, file);
          await fs.writeFile(input, hostile);
          const before = await sha256(input);
          const library = libraryOutcome(input, file, "view", target.id);
          if (library.read) {
            // Read: the damage must be a named loss, and export must say so.
            const warnings = readWarnings(input, file, target.id);
            expect(
              warnings.map((warning) => warning.code),
              `${target.id} read the ${variant.name} session without naming a loss`,
            ).not.toEqual([]);
            const result = await txcript(home, [
              "export",
              file,
              "--from",
              target.id,
              "-o",
              "exported.json",
            ]);
            const context = `export ${file}: ${JSON.stringify(result.stderr)}`;
            expect(result.code, context).toBe(0);
            expect(result.stderr, context).not.toMatch(/internal error|\n\s+at /);
            expect(
              warnings.some((warning) => result.stderr.includes(warning.code)),
              `${context}: names none of ${warnings.map((warning) => warning.code).join(", ")}`,
            ).toBe(true);
            expect(await sha256(input), `${context}: changed the input`).toBe(before);
            return;
          }
          expect(library.error.location.file).toBe(file);
          let homeBefore = await listFiles(home.root);
          for (const args of [
            ["view", file, "--from", target.id],
            ["export", file, "--from", target.id, "-o", "exported.json"],
          ]) {
            const result = await txcript(home, args);
            const context = `${args.join(" ")}: ${JSON.stringify(result.stderr)}`;
            expect(result.signal, context).toBeNull();
            expect(result.code, context).toBe(1);
            expect(result.stdout, context).toBe("");
            const lines = result.stderr.split("\n").filter(Boolean);
            const error = lines[lines.length - 1] ?? "";
            expect(error, context).toMatch(/^txcript: /);
            expect(error, context).toContain(file);
            expect(result.stderr, context).not.toMatch(/internal error|\n\s+at |Error:/);
            expect(await listFiles(home.root), `${context}: wrote a file`).toEqual(homeBefore);
            expect(await sha256(input), `${context}: changed the input`).toBe(before);
            homeBefore = await listFiles(home.root);
          }
        },
      );
    }
  }
});
