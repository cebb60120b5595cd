// The hostile corpus (fixtures/hostile/, index.json) through the built CLI:
// view, export, convert and continue each refuse every file with exit 1 or 2
// and one line that names the file (and the line or JSON path where the
// index says so), no stack trace, nothing written to any output or store
// (nothing at all appears in the temporary home), and the input's bytes
// unchanged. A command an entry lists in `accepts` reads that file instead
// (exit 0, notices only, input unchanged): a tool input too deep to write
// can still be viewed, say. The error codes, which the CLI does not print,
// are checked through the library in hostile-codes.test.ts.
import { promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { HostileCase } from "../scripts/write-hostile-corpus.js";
import { builtBin, type Home, listFiles, makeHome, removeHome, sha256, txcript } from "./cli.js";
import { continueTarget, convertTarget, type HostileCommand } from "./hostile-library.js";
import { fixturesRoot } from "./parsers.js";

const corpus = path.join(fixturesRoot, "hostile");
const index = JSON.parse(readFileSync(path.join(corpus, "index.json"), "utf8")) as {
  cases: HostileCase[];
};

function commands(entry: HostileCase): { name: HostileCommand; args: string[] }[] {
  const from = entry.from === undefined ? [] : ["--from", entry.from];
  const target = convertTarget(entry.from);
  return [
    { name: "view", args: ["view", entry.file, ...from] },
    { name: "export", args: ["export", entry.file, "-o", "exported.json", ...from] },
    {
      name: "convert",
      args: ["convert", entry.file, "--to", target, "-o", "converted.out", ...from],
    },
    {
      name: "continue",
      args: ["continue", entry.file, "--with", continueTarget, "--no-resume", ...from],
    },
  ];
}

/**
 * Every stderr line is ours: a `txcript: ` line, or an indented line that
 * continues one (the items of a loss report).
 */
function expectOurLines(lines: string[], context: string): void {
  if (lines.length > 0) expect(lines[0], context).toMatch(/^txcript: /);
  for (const line of lines) expect(line, context).toMatch(/^(txcript: | {2}\S)/);
}

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

describe("the hostile corpus", () => {
  it("lists every file in the directory, and nothing that is not there", async () => {
    const files = (await fs.readdir(corpus)).filter((name) => name !== "index.json").sort();
    expect(index.cases.map((entry) => entry.file).sort()).toEqual(files);
    expect(index.cases.length).toBeGreaterThanOrEqual(15);
  });
});

for (const entry of index.cases) {
  const refusedBy = commands(entry)
    .map((command) => command.name)
    .filter((name) => !entry.accepts?.includes(name));
  const title = `${entry.file} (${entry.what}) is refused by ${refusedBy.join(", ") || "no command"}${entry.accepts ? `, read by ${entry.accepts.join(", ")}` : ""}${entry.knownBug ? ` (known bug in ${entry.knownBug.commands.join(", ")}: ${entry.knownBug.bug})` : ""}`;
  it(title, async () => {
    const input = path.join(home.work, entry.file);
    await fs.copyFile(path.join(corpus, entry.file), input);
    const before = await sha256(input);
    let homeBefore = await listFiles(home.root);
    for (const command of commands(entry)) {
      const result = await txcript(home, command.args);
      const context = `${command.name} ${entry.file}: ${JSON.stringify(result.stderr)}`;
      expect(result.signal, context).toBeNull();
      if (entry.accepts?.includes(command.name)) {
        expect(result.code, context).toBe(0);
        expectOurLines(result.stderr.split("\n").filter(Boolean), context);
        expect(result.stderr, context).not.toMatch(/internal error|\n\s+at /);
        expect(await sha256(input), `${context}: changed the input`).toBe(before);
        homeBefore = await listFiles(home.root);
        continue;
      }
      if (!("exit" in entry)) throw new Error(`${entry.file}: no refusal in the index`);
      if (entry.knownBug?.commands.includes(command.name)) {
        // Known to miss until the fix lands: when it answers right, remove the knownBug.
        expect(
          result.code === entry.exit && !/internal error/.test(result.stderr),
          `${context}: the known bug "${entry.knownBug.bug}" looks fixed: remove knownBug from scripts/write-hostile-corpus.ts`,
        ).toBe(false);
        expect(await sha256(input), `${context}: changed the input`).toBe(before);
        homeBefore = await listFiles(home.root);
        continue;
      }
      expect(result.code, context).toBe(entry.exit);
      expect(result.stdout, context).toBe("");
      const lines = result.stderr.split("\n");
      expect(lines.pop(), context).toBe("");
      // Notices may precede it; the error is the last line, and every line is ours.
      expectOurLines(lines, context);
      const error = lines[lines.length - 1] as string;
      expect(error, context).not.toMatch(/internal error|\n\s+at |Error:/);
      expect(error, context).toContain(entry.file);
      expect(error, context).toMatch(new RegExp(entry.message));
      if (entry.where === "line")
        expect(error, context).toMatch(new RegExp(`${entry.file.replace(/\./g, "\\.")}:\\d+`));
      if (entry.where === "path") expect(error, context).toMatch(/ at \$/);
      // Nothing anywhere in the home: no output, no store of any harness, no temporary file.
      expect(await listFiles(home.root), `${context}: wrote a file`).toEqual(homeBefore);
      expect(await sha256(input), `${context}: changed the input`).toBe(before);
    }
  });
}
