// A long session file read line by line (refresh.ts, streamSession): its
// harness's readStream hands out parts, and the rows go in as they come, in
// pieces, in one transaction. The law: the rows (and each session's row)
// are those the whole read gives, on this thread and on the writer thread;
// the rows are handed on before the file's last line is read; a read that
// fails part way leaves nothing of that session; a file below the threshold,
// or whose store does not load it alone, is read whole.
//
// The test harness is named "pi" (a store that loads a session from its one
// file, its harness's readsAlone) and writes one transcript part per line, so the
// whole read and the line-by-line read of a file are plainly the same parts.
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import {
  collectTranscript,
  type Discovered,
  type LineSource,
  type Store,
  type StreamPart,
  type Transcript,
  transcriptParts,
} from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { streamPieces, writerThread } from "./refresh.js";
import { type IndexSource, SearchIndex } from "./search-index.js";

let root: string;
let sessions: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(tmpdir(), "txcript-refresh-stream-"));
  sessions = path.join(root, "sessions");
  await fs.mkdir(sessions, { recursive: true });
});
afterEach(async () => {
  streamPieces.pieceChars = 4_000_000;
  writerThread.minSessions = 32;
  await fs.rm(root, { recursive: true, force: true });
});

/** A session file: one JSON transcript part per line. */
function partsText(transcript: Transcript): string {
  return [...transcriptParts(transcript)].map((part) => `${JSON.stringify(part)}\n`).join("");
}

async function writeParts(transcript: Transcript): Promise<string> {
  const file = path.join(sessions, `${transcript.meta.id}.jsonl`);
  await fs.writeFile(file, partsText(transcript));
  return file;
}

interface Counts {
  wholeReads: number;
  streamReads: number;
  /** Lines the readers have taken, over all files. */
  lines: number;
}

/**
 * A "pi" source over `sessions`: read whole through loadFile and read, or line by line through
 * readStream (which may throw at a line whose text contains `failAt`).
 */
function partsSource(counts: Counts, options: { failAt?: string } = {}): IndexSource {
  const store: Store<unknown> = {
    harness: "pi",
    root: sessions,
    async *discover() {
      for (const name of (await fs.readdir(sessions)).sort()) {
        const file = path.join(sessions, name);
        const stat = await fs.stat(file);
        yield {
          harness: "pi",
          id: name.replace(/\.jsonl$/, ""),
          path: file,
          updatedAt: stat.mtime.toISOString(),
          title: "from discovery",
        } satisfies Discovered;
      }
    },
    load: async (id) => {
      counts.wholeReads += 1;
      return fs.readFile(path.join(sessions, `${id}.jsonl`), "utf8");
    },
    save: async () => {
      throw new Error("read-only");
    },
    delete: async () => {},
  };
  const partsOf = function* (lines: Iterable<string>): Generator<StreamPart> {
    for (const line of lines) {
      counts.lines += 1;
      if (options.failAt !== undefined && line.includes(options.failAt))
        throw new Error(`a bad line: ${options.failAt}`);
      yield JSON.parse(line) as StreamPart;
    }
  };
  return {
    harness: "pi",
    store,
    loadFile: async (session) => {
      counts.wholeReads += 1;
      return fs.readFile(session.path, "utf8");
    },
    // As pi's harness says: a session is its one file, read alone.
    readsAlone: async () => ({}),
    read: (native) =>
      collectTranscript(partsOf((native as string).split("\n").filter((line) => line !== ""))),
    readStream: (lines: LineSource) => {
      counts.streamReads += 1;
      return partsOf(lines());
    },
  };
}

const fresh = (): Counts => ({ wholeReads: 0, streamReads: 0, lines: 0 });

/** Every message row and session row of an index file, in a comparable order. */
function rowsOf(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return {
      messages: db
        .prepare("SELECT key, ordinal, role, text FROM messages ORDER BY key, rowid")
        .all(),
      sessions: db
        .prepare(
          "SELECT key, harness, id, path, title, cwd, updated_at, fingerprint, tracks FROM sessions ORDER BY key",
        )
        .all(),
      spans: db
        .prepare(
          "SELECT s.key, s.first_row, s.last_row, (SELECT count(*) FROM messages m WHERE m.key = s.key) AS n FROM sessions s",
        )
        .all() as { key: string; first_row: number | null; last_row: number | null; n: number }[],
    };
  } finally {
    db.close();
  }
}

async function indexWith(file: string, source: IndexSource, streamMinBytes: number) {
  const { index } = await SearchIndex.open(file);
  try {
    return await index.refresh([source], undefined, { streamMinBytes });
  } finally {
    index.close();
  }
}

const at = "2026-03-01T10:00:00.000Z";

/** A session of `count` messages, the second of which spawns a subagent. */
function longSession(id: string, count: number): Transcript {
  return {
    meta: { id, timestamp: at, title: `session ${id}`, cwd: "/work/long" },
    messages: Array.from({ length: count }, (_, index) => ({
      role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
      timestamp: at,
      content:
        index === 1
          ? [
              {
                type: "tool_use" as const,
                id: "call_1",
                tool: { name: "Task", input: { prompt: "look around" } } as never,
              },
            ]
          : [{ type: "text" as const, text: `message ${index} of ${id} saying lorem ipsum` }],
    })),
    subagents: [
      {
        id: "sub",
        toolUseId: "call_1",
        messages: [
          { role: "user", timestamp: at, content: [{ type: "text", text: "inner question" }] },
        ],
      },
    ],
  };
}

describe.each([
  ["on this thread", 1_000_000],
  ["on the writer thread", 1],
])("a long session read line by line, written %s", (_, minSessions) => {
  beforeEach(() => {
    writerThread.minSessions = minSessions;
  });

  it("gives the rows the whole read gives (generated sessions)", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(transcriptArbitrary(), {
          minLength: 1,
          maxLength: 4,
          selector: (transcript) => transcript.meta.id,
        }),
        fc.integer({ min: 1, max: 400 }),
        async (transcripts, pieceChars) => {
          run += 1;
          await fs.rm(sessions, { recursive: true, force: true });
          await fs.mkdir(sessions, { recursive: true });
          for (const transcript of transcripts) {
            if (/[/\\]|^\.\.?$/.test(transcript.meta.id) || transcript.meta.id === "") return;
            await writeParts(transcript);
          }
          streamPieces.pieceChars = pieceChars;
          const whole = path.join(root, `whole-${run}.sqlite`);
          const streamed = path.join(root, `streamed-${run}.sqlite`);
          const wholeCounts = fresh();
          const streamCounts = fresh();
          const wholeStats = await indexWith(whole, partsSource(wholeCounts), Infinity);
          const streamStats = await indexWith(streamed, partsSource(streamCounts), 0);
          expect(wholeStats.failed).toEqual([]);
          expect(streamStats.failed).toEqual([]);
          expect(wholeStats.streamed).toBe(0);
          expect(streamStats.streamed).toBe(transcripts.length);
          expect(streamCounts.wholeReads).toBe(0);
          expect(wholeCounts.streamReads).toBe(0);
          const a = rowsOf(whole);
          const b = rowsOf(streamed);
          expect(b.messages).toEqual(a.messages);
          expect(b.sessions).toEqual(a.sessions);
          // Each session's rows lie between its first and last rowid, and only its own.
          for (const span of b.spans)
            expect(span.first_row === null ? 0 : Number(span.last_row) - span.first_row + 1).toBe(
              span.n,
            );
        },
      ),
      lawParameters(25),
    );
  }, 120_000);

  it("hands rows on before the file's last line is read", async () => {
    const file = await writeParts(longSession("long", 60));
    const total = (await fs.readFile(file, "utf8")).split("\n").length - 1;
    streamPieces.pieceChars = 200;
    const counts = fresh();
    const source = partsSource(counts);
    const handed: number[] = [];
    // The lines taken when each piece is handed on: the reader is paused there (a generator).
    streamPieces.onPiece = () => handed.push(counts.lines);
    try {
      const stats = await indexWith(path.join(root, "index.sqlite"), source, 0);
      expect(stats.streamed).toBe(1);
    } finally {
      delete streamPieces.onPiece;
    }
    expect(handed.length).toBeGreaterThan(5);
    expect(handed[0]).toBeLessThan(total / 4);
    expect(counts.lines).toBe(total);
  });

  it("reports how far it has read a long file", async () => {
    const file = await writeParts(longSession("long", 60));
    const size = (await fs.stat(file)).size;
    streamPieces.progressChars = 500;
    const seen: { size?: number; read?: number; path: string }[] = [];
    const { index } = await SearchIndex.open(path.join(root, "index.sqlite"));
    try {
      await index.refresh([partsSource(fresh())], (progress) => seen.push(progress), {
        streamMinBytes: 0,
      });
    } finally {
      index.close();
      streamPieces.progressChars = 16 * 2 ** 20;
    }
    const reading = seen.filter((progress) => progress.size !== undefined);
    expect(reading.every((progress) => progress.size === size && progress.path === file)).toBe(
      true,
    );
    const read = reading.map((progress) => progress.read as number);
    // From the start, rising, every 500 characters or so, to near the end (a line each).
    expect(read[0]).toBe(0);
    expect(read.length).toBeGreaterThan(size / 500 / 2);
    expect(read).toEqual([...read].sort((a, b) => a - b));
    expect(read.at(-1)).toBeGreaterThan(size - 1_000);
  });

  it("leaves nothing of a session whose reading fails part way, and keeps the others", async () => {
    await writeParts(longSession("good", 20));
    await writeParts(longSession("bad", 40));
    const file = path.join(root, "index.sqlite");
    // Indexed whole first: the bad session's old rows must go too when it fails.
    expect((await indexWith(file, partsSource(fresh()), Infinity)).failed).toEqual([]);
    const before = rowsOf(file);
    // Touched, so both are read again; the bad one fails at its 30th message.
    const later = new Date(Date.now() + 5_000);
    for (const name of ["good.jsonl", "bad.jsonl"])
      await fs.utimes(path.join(sessions, name), later, later);
    streamPieces.pieceChars = 100;
    const stats = await indexWith(file, partsSource(fresh(), { failAt: "message 30 of bad" }), 0);
    expect(stats.failed.map((failure) => failure.id)).toEqual(["bad"]);
    expect(stats.failed[0]?.reason).toContain("a bad line");
    expect(stats.streamed).toBe(1);
    const after = rowsOf(file);
    expect(after.sessions.map((row) => (row as { id: string }).id)).toEqual(["good"]);
    expect(after.messages).toEqual(
      before.messages.filter((row) => (row as { key: string }).key.endsWith("\u0000good")),
    );
    // The index is usable: another refresh reads it again and writes it.
    const again = await indexWith(file, partsSource(fresh()), 0);
    expect(again.failed).toEqual([]);
    expect(rowsOf(file).messages).toEqual(before.messages);
  });
});

describe("a session read whole", () => {
  it("is one below the threshold, or of a source with no readStream (controls)", async () => {
    await writeParts(longSession("small", 10));
    const size = (await fs.stat(path.join(sessions, "small.jsonl"))).size;
    const below = fresh();
    const stats = await indexWith(path.join(root, "a.sqlite"), partsSource(below), size + 1);
    expect([stats.streamed, below.streamReads, below.wholeReads > 0]).toEqual([0, 0, true]);
    const at = fresh();
    const streamed = await indexWith(path.join(root, "b.sqlite"), partsSource(at), size);
    expect([streamed.streamed, at.streamReads, at.wholeReads]).toEqual([1, 1, 0]);
    const { readStream: _, ...whole } = partsSource(fresh());
    const none = await indexWith(path.join(root, "c.sqlite"), whole, 0);
    expect([none.streamed, none.failed]).toEqual([0, []]);
  });

  it("is one whose harness does not load it from its file alone (readsAlone says so)", async () => {
    await writeParts(longSession("other", 10));
    const counts = fresh();
    const source = partsSource(counts);
    const other: IndexSource = { ...source, readsAlone: async () => undefined };
    const stats = await indexWith(path.join(root, "index.sqlite"), other, 0);
    expect([stats.streamed, counts.streamReads, stats.failed]).toEqual([0, 0, []]);
  });

  it("is one of a source that says nothing of reading alone", async () => {
    await writeParts(longSession("other", 10));
    const counts = fresh();
    const { readsAlone: _, ...other } = partsSource(counts);
    const stats = await indexWith(path.join(root, "index.sqlite"), other, 0);
    expect([stats.streamed, counts.streamReads, stats.failed]).toEqual([0, 0, []]);
  });
});
