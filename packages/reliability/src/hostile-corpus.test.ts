// The hostile corpus (fixtures/hostile/, index.json) through the built CLI:
// view, export, convert and continue each refuse every file with exit 1 or 2
// and one line that names the file (and the line or JSON path where the
// index says so), no stack trace, nothing written to any output or store,
// and the input's bytes unchanged. A command an entry lists in `accepts`
// reads that file instead (exit 0, notices only, input unchanged): a
// tool input too deep to write can still be viewed, say.
import { promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { builtBin, type Home, listFiles, makeHome, removeHome, sha256, txcript } from "./cli.js";
import { fixturesRoot } from "./parsers.js";

interface HostileCase {
  file: string;
  what: string;
  from?: string;
  exit: 1 | 2;
  code: string;
  message: string;
  where: "line" | "path" | "file";
  /** Commands that read this file successfully rather than refusing it. */
  accepts?: string[];
  knownBug?: string;
}

const corpus = path.join(fixturesRoot, "hostile");
const index = JSON.parse(readFileSync(path.join(corpus, "index.json"), "utf8")) as {
  cases: HostileCase[];
};

function commands(entry: HostileCase): { name: string; args: string[]; output?: string }[] {
  const from = entry.from === undefined ? [] : ["--from", entry.from];
  const target = entry.from === "claude_code" ? "amp" : "claude_code";
  return [
    { name: "view", args: ["view", entry.file, ...from] },
    {
      name: "export",
      args: ["export", entry.file, "-o", "exported.json", ...from],
      output: "exported.json",
    },
    {
      name: "convert",
      args: ["convert", entry.file, "--to", target, "-o", "converted.out", ...from],
      output: "converted.out",
    },
    {
      name: "continue",
      args: ["continue", entry.file, "--with", "claude_code", "--no-resume", ...from],
    },
  ];
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
  const test = entry.knownBug === undefined ? it : it.fails;
  // A known bug (regressions.test.ts names it) keeps this case failing until the fix lands.
  const refusedBy = commands(entry)
    .map((command) => command.name)
    .filter((name) => !entry.accepts?.includes(name));
  const title = `${entry.file} (${entry.what}) is refused by ${refusedBy.join(", ") || "no command"}${entry.accepts ? `, read by ${entry.accepts.join(", ")}` : ""}`;
  test(title, async () => {
    const input = path.join(home.work, entry.file);
    await fs.copyFile(path.join(corpus, entry.file), input);
    const before = await sha256(input);
    let workBefore = await listFiles(home.work);
    for (const command of commands(entry)) {
      const result = await txcript(home, command.args);
      const context = `${command.name} ${entry.file}: ${JSON.stringify(result.stderr)}`;
      expect(result.signal, context).toBeNull();
      if (entry.accepts?.includes(command.name)) {
        expect(result.code, context).toBe(0);
        for (const line of result.stderr.split("\n").filter(Boolean))
          expect(line, context).toMatch(/^txcript: /);
        expect(result.stderr, context).not.toMatch(/internal error|\n\s+at /);
        expect(await sha256(input), `${context}: changed the input`).toBe(before);
        workBefore = await listFiles(home.work);
        continue;
      }
      expect(result.code, context).toBe(entry.exit);
      expect(result.stdout, context).toBe("");
      const lines = result.stderr.split("\n");
      expect(lines.pop(), context).toBe("");
      // Notices may precede it; the error is the last line, and every line is ours.
      for (const line of lines) expect(line, context).toMatch(/^txcript: /);
      const error = lines[lines.length - 1] as string;
      expect(error, context).not.toMatch(/internal error|\n\s+at |Error:/);
      expect(error, context).toContain(entry.file);
      expect(error, context).toMatch(new RegExp(entry.message));
      if (entry.where === "line")
        expect(error, context).toMatch(new RegExp(`${entry.file.replace(/\./g, "\\.")}:\\d+`));
      if (entry.where === "path") expect(error, context).toMatch(/ at \$/);
      expect(await listFiles(home.work), `${context}: wrote into the work directory`).toEqual(
        workBefore,
      );
      expect(await listFiles(home.ampThreads), `${context}: wrote into the Amp store`).toEqual([]);
      expect(
        await listFiles(home.claudeProjects),
        `${context}: wrote into the Claude store`,
      ).toEqual([]);
      expect(await sha256(input), `${context}: changed the input`).toBe(before);
    }
  });
}
