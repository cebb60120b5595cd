import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TxcriptError } from "./errors.js";
import { readHead } from "./files.js";
import { eventLoopTurns, readFileEnds } from "./session-ends.js";
import { readTail } from "./session-files.js";
import { lawParameters } from "./testing/index.js";

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-session-ends-"));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

function errorOf(run: () => unknown): TxcriptError {
  try {
    run();
  } catch (error) {
    if (TxcriptError.isInstance(error)) return error;
    throw new Error(`expected a TxcriptError, got ${error}`);
  }
  throw new Error("expected a TxcriptError, got none");
}

describe("readFileEnds", () => {
  it("gives the head readHead gives and the tail readTail gives, or the whole file when they meet", async () => {
    const file = path.join(directory, "s.jsonl");
    await fc.assert(
      fc.asyncProperty(
        // Multi-byte characters, so heads and tails cut them.
        fc.string({ unit: fc.constantFrom("a", "\n", "é", "日", "😀", "{"), maxLength: 300 }),
        fc.integer({ min: 1, max: 200 }),
        async (text, headBytes) => {
          await fs.writeFile(file, text);
          const { size } = await fs.stat(file);
          const ends = readFileEnds(file, headBytes, headBytes);
          expect(ends.size).toBe(size);
          if (size <= 2 * headBytes) {
            expect(ends.head).toEqual((await readHead(file, size)).split("\n"));
            expect(ends.tail).toEqual([]);
          } else {
            expect(ends.head).toEqual((await readHead(file, headBytes)).split("\n"));
            expect(ends.tail).toEqual((await readTail(file, size, headBytes)).split("\n"));
          }
        },
      ),
      lawParameters(150),
    );
  });

  it("reuses its buffer without leaking one file's bytes into the next", async () => {
    const big = path.join(directory, "big.jsonl");
    const small = path.join(directory, "small.jsonl");
    await fs.writeFile(big, "x".repeat(10_000));
    await fs.writeFile(small, "ab\ncd");
    expect(readFileEnds(big, 4096, 4096).tail).toEqual(["x".repeat(4096)]);
    const ends = readFileEnds(small, 4096, 4096);
    expect(ends).toMatchObject({ size: 5, head: ["ab", "cd"], tail: [] });
    // Control: apart, the ends are read apart.
    expect(readFileEnds(small, 1, 2)).toMatchObject({ head: ["a"], tail: ["cd"] });
  });

  it("refuses what is not a regular file: a directory, a link, a FIFO, a missing file", async () => {
    expect(errorOf(() => readFileEnds(directory, 10, 10, "h"))).toMatchObject({
      code: "IO",
      message: "cannot read: not a regular file",
      harness: "h",
    });
    const target = path.join(directory, "t.jsonl");
    await fs.writeFile(target, "{}\n");
    const link = path.join(directory, "l.jsonl");
    await fs.symlink(target, link);
    expect(errorOf(() => readFileEnds(link, 10, 10)).code).toBe("IO");
    // Control: the link's target itself reads.
    expect(readFileEnds(target, 10, 10).head).toEqual(["{}", ""]);
    const fifo = path.join(directory, "f.jsonl");
    execFileSync("mkfifo", [fifo]);
    // Would hang if the open blocked waiting for a writer.
    expect(errorOf(() => readFileEnds(fifo, 10, 10)).code).toBe("IO");
    expect(errorOf(() => readFileEnds(path.join(directory, "none"), 10, 10)).code).toBe(
      "NOT_FOUND",
    );
  });
});

describe("eventLoopTurns", () => {
  it("yields to the event loop only once a slice has passed", async () => {
    const turn = eventLoopTurns(50);
    expect(turn()).toBeUndefined();
    const until = performance.now() + 60;
    while (performance.now() < until) {
      // Busy, as a synchronous listing is.
    }
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    await turn();
    expect(ran).toBe(true);
    expect(turn()).toBeUndefined();
  });
});
