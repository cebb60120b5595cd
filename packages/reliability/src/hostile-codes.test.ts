// The hostile corpus as data: the generator (scripts/write-hostile-corpus.ts)
// reproduces fixtures/hostile/ byte for byte, every case is specific (a
// message pattern that cannot match any line, a known error code), and the
// library refuses each file with the very code the index names, in every
// command that refuses it, and reads it in every command that accepts it.
// The same corpus goes through the built CLI in hostile-corpus.test.ts.
import { execFile } from "node:child_process";
import { promises as fs, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { errorCodes } from "@txcript/core";
import { describe, expect, it } from "vitest";
import type { HostileCase } from "../scripts/write-hostile-corpus.js";
import { hostileCommands, libraryOutcome } from "./hostile-library.js";
import { fixturesRoot, packageRoot } from "./parsers.js";

const corpus = path.join(fixturesRoot, "hostile");
const index = JSON.parse(readFileSync(path.join(corpus, "index.json"), "utf8")) as {
  cases: HostileCase[];
};
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

function runGenerator(out: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", tsxLoader, path.join(packageRoot, "scripts/write-hostile-corpus.ts"), out],
      { cwd: packageRoot, timeout: 120_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe("the hostile corpus generator", () => {
  it("reproduces fixtures/hostile/ exactly (index.json included)", async () => {
    const out = await fs.mkdtemp(path.join(tmpdir(), "txcript-hostile-"));
    try {
      await runGenerator(out);
      const written = (await fs.readdir(out)).sort();
      expect(written).toEqual((await fs.readdir(corpus)).sort());
      for (const name of written) {
        const fresh = await fs.readFile(path.join(out, name));
        const checkedIn = await fs.readFile(path.join(corpus, name));
        expect(
          fresh.equals(checkedIn),
          `${name} differs from the generator's output: run pnpm --filter @txcript/reliability hostile:write`,
        ).toBe(true);
      }
    } finally {
      await fs.rm(out, { recursive: true, force: true });
    }
  });

  it("refuses to write into a directory that is not empty", async () => {
    const out = await fs.mkdtemp(path.join(tmpdir(), "txcript-hostile-"));
    try {
      await fs.writeFile(path.join(out, "keep.txt"), "mine");
      await expect(runGenerator(out)).rejects.toThrow(/is not empty/);
      expect(await fs.readdir(out)).toEqual(["keep.txt"]);
    } finally {
      await fs.rm(out, { recursive: true, force: true });
    }
  });
});

// Lines no message pattern may match: they say nothing about what went wrong.
const vagueLines = [
  "",
  "x",
  "txcript: input.json: error",
  "txcript: input.json:3: something went wrong at $.messages",
];

describe("the hostile corpus index", () => {
  it("has specific cases: a known code and a message pattern that matches no vague line", () => {
    expect(index.cases.length).toBeGreaterThanOrEqual(15);
    for (const entry of index.cases) {
      const accepted = entry.accepts ?? [];
      expect(accepted.every((name) => (hostileCommands as readonly string[]).includes(name))).toBe(
        true,
      );
      if (!("exit" in entry)) {
        // A case every command reads has no refusal to describe.
        expect([...accepted].sort(), entry.file).toEqual([...hostileCommands].sort());
        continue;
      }
      expect(accepted.length, `${entry.file}: refused by no command`).toBeLessThan(
        hostileCommands.length,
      );
      expect(errorCodes, entry.file).toContain(entry.code);
      const pattern = new RegExp(entry.message);
      for (const line of vagueLines)
        expect(
          pattern.test(line),
          `${entry.file}: /${entry.message}/ matches ${JSON.stringify(line)}`,
        ).toBe(false);
    }
  });
});

describe("the hostile corpus through the library", () => {
  for (const entry of index.cases) {
    const refusal = "exit" in entry ? entry : undefined;
    it(`${entry.file}: ${refusal ? `refused with ${refusal.code}` : "read"} by every command that does not accept it`, () => {
      const file = path.join(corpus, entry.file);
      for (const command of hostileCommands) {
        const outcome = libraryOutcome(file, entry.file, command, entry.from);
        if (entry.accepts?.includes(command) || refusal === undefined) {
          expect(outcome.read ? "read" : outcome.error.format(), `${command} ${entry.file}`).toBe(
            "read",
          );
          continue;
        }
        if (outcome.read)
          throw new Error(`${command} ${entry.file}: read, expected ${refusal.code}`);
        expect(outcome.error.code, `${command} ${entry.file}: ${outcome.error.format()}`).toBe(
          refusal.code,
        );
        expect(outcome.error.format()).toMatch(new RegExp(refusal.message));
        expect(outcome.error.location.file).toBe(entry.file);
      }
    });
  }
});
