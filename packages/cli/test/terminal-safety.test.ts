// Issue 33, item 4: what txcript prints for a person is safe for a terminal.
// A session whose title, directory, messages, thinking, tool input and tool
// output carry ESC/OSC/CSI/BEL/C1 sequences and bidi overrides goes through
// view (plain and on a TTY with colour), list, search, continue's notes and
// an error: none of those characters reaches stdout or stderr; each shows as
// a visible mark (see packages/cli/src/terminal-text.ts, docs/security.md).
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertBuilt,
  fixturesRoot,
  type Home,
  hasScript,
  makeHome,
  removeHome,
  txcript,
  txcriptOnTty,
} from "./e2e.js";
import { sampleTranscript } from "./sample.js";

/** A title-setting OSC, a screen clear, an OSC 52 clipboard write, a C1 CSI, an RLO, an isolate, DEL, BEL, CR. */
const hostile =
  "\u001b]0;pwned\u0007\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u009b31m\u202eevil\u2066x\u2069\u007f\r";

/** The characters no printed line may hold: C0 but tab and newline, DEL, C1, bidi controls. */
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** Only the colour codes txcript paints with itself (core text.ts, search-output.ts). */
const ownColour = /\u001b\[(?:0|1|2|31|33|36|1;33)m/g;

let home: Home;
let source: string;
beforeAll(assertBuilt);
beforeEach(async () => {
  home = await makeHome();
  source = path.join(home.work, "hostile.common.json");
  const [first, second, third, ...rest] = sampleTranscript.messages;
  const document = {
    format: "txcript.common/v2",
    meta: {
      ...sampleTranscript.meta,
      title: `title ${hostile}`,
      cwd: `/nonexistent/dir${hostile}`,
    },
    messages: [
      { ...first, content: [{ type: "text", text: `zebrafish ${hostile} asks` }] },
      {
        ...second,
        content: [
          { type: "thinking", text: `thinking ${hostile}` },
          { type: "text", text: `text ${hostile}` },
          {
            type: "tool_use",
            id: "toolu_01",
            tool: { name: "Bash", input: { command: `ls ${hostile}` } },
          },
        ],
      },
      {
        ...third,
        content: [
          { type: "tool_result", toolUseId: "toolu_01", content: `out ${hostile}`, isError: false },
        ],
      },
      ...rest,
    ],
  };
  await fs.writeFile(source, JSON.stringify(document));
});
afterEach(async () => {
  await removeHome(home);
});

function expectSafe(text: string, label: string): void {
  const found = unsafe.exec(text);
  expect(
    found,
    `${label}: U+${found?.[0].codePointAt(0)?.toString(16)} at ${found?.index}`,
  ).toBeNull();
}

describe("printed text is safe for a terminal", () => {
  it("view: title, cwd, text, thinking, tool input and output show the escapes as marks", async () => {
    const view = await txcript(home, ["view", source]);
    expect(view.code, view.stderr).toBe(0);
    expectSafe(view.stdout, "view stdout");
    expectSafe(view.stderr, "view stderr");
    for (const where of [
      "title ",
      "cwd /nonexistent/dir",
      "thinking: thinking ",
      "  text ",
      "← out ",
    ])
      expect(view.stdout).toContain(`${where}␛]0;pwned␇␛[2J`);
    expect(view.stdout).toContain("<U+009B>31m<U+202E>evil<U+2066>x<U+2069>␡␍");
    expect(view.stdout).toContain("ls ␛]0;pwned␇");
  });

  it("view - on a stream-json pipe (the live view)", async () => {
    const capture = (
      await fs.readFile(path.join(fixturesRoot, "stream-json/claude-tools.jsonl"), "utf8")
    )
      .replace("The user wants the test count.", JSON.stringify(hostile).slice(1, -1))
      .replace(
        "/Users/alice/src/app",
        `/Users/alice/src/app${JSON.stringify(hostile).slice(1, -1)}`,
      );
    expect(capture).toContain("\\u001b]0;pwned");
    const view = await txcript(home, ["view", "-"], { stdin: capture });
    expect(view.code, view.stderr).toBe(0);
    expectSafe(view.stdout, "live view");
    expect(view.stdout).toContain("thinking: ␛]0;pwned␇");
    expect(view.stdout).toContain("cwd /Users/alice/src/app␛]0;pwned␇");
  });

  it.skipIf(!hasScript)("view on a terminal: only txcript's own colour codes", async () => {
    const view = await txcriptOnTty(home, ["view", source], { FORCE_COLOR: "1" });
    expect(view.code, view.stdout).toBe(0);
    expect(view.stdout).toMatch(ownColour);
    // `script` turns LF into CRLF on its pseudo-terminal.
    expectSafe(view.stdout.replaceAll("\r\n", "\n").replace(ownColour, ""), "tty view");
    expect(view.stdout).toContain("␛]0;pwned␇");
  });

  it("continue's notes, list, list --json, search, search --json and an error", async () => {
    const continued = await txcript(home, ["continue", source, "--with", "claude", "--no-resume"]);
    expect(continued.code, continued.stderr).toBe(0);
    expectSafe(continued.stderr, "continue notes");
    expectSafe(continued.stdout, "continue stdout");
    expect(continued.stderr).toContain("the session's directory /nonexistent/dir␛]0;pwned␇");

    const list = await txcript(home, ["list"]);
    expect(list.code, list.stderr).toBe(0);
    expectSafe(list.stdout, "list");
    expect(list.stdout).toContain("title ␛]0;pwned␇␛[2J");

    const listJson = await txcript(home, ["list", "--json"]);
    expectSafe(listJson.stdout.replaceAll("\n", ""), "list --json");
    expect(JSON.parse(listJson.stdout)[0].title).toBe(`title ${hostile}`);

    for (const args of [
      ["search", "zebrafish"],
      ["search", "zebrafish", "--json"],
    ]) {
      const search = await txcript(home, args);
      expect(search.code, search.stderr).toBe(0);
      expect(search.stdout).toContain("zebrafish");
      expectSafe(search.stdout.replaceAll("\n", ""), args.join(" "));
      expectSafe(search.stderr, `${args.join(" ")} stderr`);
    }

    const error = await txcript(home, ["view", `${home.work}/no${hostile}.json`]);
    expect(error.code).toBe(1);
    expectSafe(error.stderr, "error");
    expect(error.stderr).toContain("<U+009B>31m<U+202E>evil");
  });
});
