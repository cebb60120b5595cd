// The source of fixtures/hostile/ (the hostile corpus for the CLI): writes
// every file and index.json from the fixtures beside it; the directory is
// its output, and a test runs this script into a temporary directory and
// compares byte for byte. Each entry says what the commands that refuse the
// file must answer (the exit code, the TxcriptError code, a message and
// whether it names a line or a JSON path) and which commands read it
// instead. Run `pnpm --filter @txcript/reliability hostile:write` after
// changing a case (an argument writes somewhere else: the test's temp dir).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixtures = path.join(repoRoot, "fixtures");
const target = process.argv[2];
const out = target === undefined ? path.join(fixtures, "hostile") : path.resolve(target);
if (target !== undefined && existsSync(out) && readdirSync(out).length > 0)
  throw new Error(`${out} is not empty: pass a new or empty directory`);

type Command = "view" | "export" | "convert" | "continue";
const allCommands: Command[] = ["view", "export", "convert", "continue"];

interface Refusal {
  exit: 1 | 2;
  /** The TxcriptError code behind the message (the CLI prints none: the test asks the library). */
  code: string;
  /** A regular expression the message (after "txcript: <file>…") must match. */
  message: string;
  /** What the message must point at besides the file: a line, a JSON path, or nothing more. */
  where: "line" | "path" | "file";
}

/** Commands that do not answer as the case says today, and the regression test that names the bug. */
interface KnownBug {
  commands: Command[];
  bug: string;
}

/** A file some command refuses (`accepts` names those that read it), or one every command reads. */
export type HostileCase = {
  file: string;
  /** What the file is and why it is hostile. */
  what: string;
  /** `--from` to pass, when detection is not the point of the case. */
  from?: string;
  /** Until its fix lands the test expects these commands to miss (and fails when they answer right). */
  knownBug?: KnownBug;
} & ((Refusal & { accepts?: Command[] }) | { accepts: Command[] });

const read = (relative: string) => readFileSync(path.join(fixtures, relative), "utf8");
const ampThread = read("amp/export-thread.json");
const claudeSession = read("claude-code/split-messages.jsonl");
const claudeLines = claudeSession.split("\n");
const streamCapture = read("stream-json/claude-tools.jsonl");
const commonDocument = read("stream-json/claude-tools.common.json");

/** A small Common document with one Raw tool call whose input holds `value` (raw JSON text). */
function rawToolDocument(value: string): string {
  const document = {
    format: "txcript.common/v1",
    meta: { id: "hostile", timestamp: "2026-01-01T00:00:00.000Z" },
    messages: [
      {
        role: "assistant",
        timestamp: "2026-01-01T00:00:00.000Z",
        content: [
          {
            type: "tool_use",
            id: "t1",
            tool: { name: "Raw", toolName: "x", input: { deep: "VALUE" } },
          },
        ],
      },
    ],
  };
  return `${JSON.stringify(document, null, 2).replace('"VALUE"', value)}\n`;
}

const files = new Map<string, Buffer>();
const cases: HostileCase[] = [];
function add(entry: HostileCase, content: string | Buffer): void {
  if ([ampThread, claudeSession, streamCapture, commonDocument].includes(content.toString()))
    throw new Error(`${entry.file}: the edit did not apply`);
  files.set(entry.file, Buffer.isBuffer(content) ? content : Buffer.from(content, "utf8"));
  cases.push(entry);
}

const deep = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const lineCut = (lines: string[], at: number, replacement: string) =>
  lines.map((line, index) => (index === at ? replacement : line)).join("\n");

add(
  {
    file: "empty.json",
    what: "zero bytes",
    exit: 1,
    code: "UNKNOWN_FORMAT",
    message: "cannot tell which harness",
    where: "file",
  },
  "",
);
add(
  {
    file: "whitespace.jsonl",
    what: "blank lines and spaces only",
    exit: 1,
    code: "UNKNOWN_FORMAT",
    message: "cannot tell which harness",
    where: "file",
  },
  "\n  \n\t\n",
);
add(
  {
    file: "prose.txt",
    what: "not JSON at all",
    exit: 1,
    code: "UNKNOWN_FORMAT",
    message: "cannot tell which harness",
    where: "file",
  },
  "This is a README, not a session.\n",
);
add(
  {
    file: "binary.bin",
    what: "random-looking bytes with NUL and invalid UTF-8",
    exit: 1,
    code: "UNKNOWN_FORMAT",
    message: "cannot tell which harness",
    where: "file",
  },
  Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x80, 0xc0, 0xaf, 0x0a, 0xed, 0xa0, 0x80, 0x00, 0x22]),
);
add(
  {
    file: "utf16le-common.json",
    what: "a Common document saved as UTF-16LE with a BOM",
    exit: 1,
    code: "UNKNOWN_FORMAT",
    message: "cannot tell which harness",
    where: "file",
  },
  Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(commonDocument, "utf16le")]),
);
add(
  {
    file: "amp-truncated.json",
    what: "an Amp thread cut off mid-document",
    from: "amp",
    exit: 1,
    code: "INVALID_JSON",
    message: "not valid JSON",
    where: "line",
  },
  ampThread.slice(0, Math.floor(ampThread.length / 2)),
);
add(
  {
    file: "amp-messages-not-array.json",
    what: "an Amp thread whose messages is an object",
    from: "amp",
    exit: 1,
    code: "INVALID_DOCUMENT",
    message: "not an Amp thread: `messages` is missing or not an array",
    where: "path",
  },
  ampThread.replace(/"messages": \[/, '"messages": "not an array",\n  "messagesWere": ['),
);
add(
  {
    file: "amp-deep.json",
    what: "an Amp thread with a tool input nested 100,000 deep",
    from: "amp",
    exit: 1,
    code: "TOO_LARGE",
    message: "nested too deeply",
    where: "file",
    accepts: ["view"],
  },
  ampThread.replace(/"input": \{/, `"input": {"deep": ${deep(100_000)},`),
);
add(
  {
    file: "claude-garbage-line.jsonl",
    what: "a Claude Code session whose third line is not JSON",
    from: "claude_code",
    exit: 1,
    code: "INVALID_JSON",
    message: "not valid JSON",
    where: "line",
  },
  lineCut(claudeLines, 2, '{"type":"assistant", oops'),
);
add(
  {
    file: "claude-invalid-utf8.jsonl",
    what: "a Claude Code session with invalid UTF-8 bytes between tokens of line 2",
    from: "claude_code",
    exit: 1,
    code: "INVALID_JSON",
    message: "not valid JSON",
    where: "line",
  },
  Buffer.concat([
    Buffer.from(`${claudeLines[0]}\n{`, "utf8"),
    Buffer.from([0xc0, 0xaf, 0xff]),
    Buffer.from(
      `${(claudeLines[1] as string).slice(1)}\n${claudeLines.slice(2).join("\n")}`,
      "utf8",
    ),
  ]),
);
add(
  {
    file: "claude-deep-line.jsonl",
    what: "a Claude Code session with a tool input nested 100,000 deep",
    from: "claude_code",
    exit: 1,
    code: "TOO_LARGE",
    message: "nested too deeply",
    where: "file",
    accepts: ["view"],
  },
  claudeSession.replace('"input":{', `"input":{"deep":${deep(100_000)},`),
);
add(
  {
    file: "claude-huge-number.jsonl",
    what: "a Claude Code session with 1e400 (past the double range) in a tool input",
    from: "claude_code",
    exit: 1,
    code: "INVALID_DOCUMENT",
    message: "a number is out of range \\(past ±1\\.8e308\\)",
    where: "line",
  },
  claudeSession.replace('"input":{', '"input":{"n":1e400,'),
);
add(
  {
    file: "stream-json-type-object.jsonl",
    what: "a stream-json capture whose second line's type is an object with a null toString",
    from: "stream_json",
    // Read as a line of an unknown type (a named loss) by every command.
    accepts: allCommands,
  },
  lineCut(
    streamCapture.split("\n"),
    1,
    '{"type":[{"toString":null}],"session_id":"4f1d2c3b-8a9e-4b7c-9d0e-1f2a3b4c5d6e"}',
  ),
);
add(
  {
    file: "stream-json-cut-line.jsonl",
    what: "a stream-json capture with a cut line in the middle",
    from: "stream_json",
    exit: 1,
    code: "INVALID_JSON",
    message: "not (valid )?JSON",
    where: "line",
  },
  lineCut(streamCapture.split("\n"), 2, '{"type":"assistant","message":{"content":[{"ty'),
);
add(
  {
    file: "common-wrong-role.json",
    what: 'a Common document with role "robot"',
    exit: 1,
    code: "INVALID_DOCUMENT",
    message: "not a valid Common document",
    where: "path",
  },
  commonDocument.replace('"role": "user"', '"role": "robot"'),
);
add(
  {
    file: "common-duplicate-format.json",
    what: "a Common document whose format key is written twice, the second time wrong",
    from: "common",
    exit: 1,
    code: "INVALID_DOCUMENT",
    message: "txcript\\.common/v1",
    where: "path",
  },
  commonDocument.replace(
    /"format": ("txcript\.common\/v\d+"),/,
    '"format": $1,\n  "format": "txcript.common/v0",',
  ),
);
add(
  {
    file: "common-proto-meta.json",
    what: "a Common document whose meta carries a __proto__ key",
    exit: 1,
    code: "INVALID_DOCUMENT",
    message: "not a valid Common document",
    where: "path",
  },
  commonDocument.replace('"meta": {', '"meta": {\n    "__proto__": {"polluted": "yes"},'),
);
add(
  {
    file: "common-deep-tool-input.json",
    what: "a Common document with a tool input nested 3,000 deep",
    exit: 1,
    code: "TOO_LARGE",
    message: "nested too deeply",
    where: "file",
  },
  rawToolDocument(deep(3000)),
);
add(
  {
    file: "common-bad-timestamp.json",
    what: "a Common document with a timestamp that is not ISO UTC",
    exit: 1,
    code: "INVALID_DOCUMENT",
    message: "not a valid Common document",
    where: "path",
  },
  commonDocument.replace(/"timestamp": "[^"]+"/, '"timestamp": "yesterday"'),
);

if (target === undefined) rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const [name, content] of files) writeFileSync(path.join(out, name), content);
writeFileSync(
  path.join(out, "index.json"),
  `${JSON.stringify({ description: "Hostile inputs for the txcript CLI: each command not in a case's `accepts` must refuse the file with one line naming it (and the line or JSON path), the exit code and the TxcriptError code given, writing nothing; the commands in `accepts` read it. Written by packages/reliability/scripts/write-hostile-corpus.ts (the source: do not edit by hand).", cases }, null, 2)}\n`,
);
console.log(`wrote ${files.size} hostile files and index.json to ${path.relative(repoRoot, out)}`);
