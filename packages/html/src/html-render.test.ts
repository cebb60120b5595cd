import type { Transcript } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { cutPre } from "./html-cut.js";
import { diffLines } from "./html-diff.js";
import { escapeHtml, imageDataUrl } from "./html-escape.js";
import * as html from "./index.js";
import { hostileSession, hostileStrings } from "./test-hostile.js";
import { longSession, smallSession } from "./test-support.js";

const { renderHtml } = html;

const decodeEntities = (text: string) =>
  text.replace(
    /&(lt|gt|quot|#39|amp);/g,
    (_, name: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[name] as string,
  );

it("exports exactly the public API", () => {
  expect(Object.keys(html).sort()).toEqual(["escapeHtml", "renderHtml"]);
});

describe("escaping", () => {
  it("escapes the five characters and nothing else", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a> é ✓`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt; é ✓",
    );
    expect(decodeEntities(escapeHtml(hostileStrings.join("\n")))).toBe(hostileStrings.join("\n"));
  });

  it("marks bidi embeddings, overrides and isolates visibly, in text and attributes alike", () => {
    const session = smallSession();
    const bidi = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069";
    session.meta = { ...session.meta, title: `title ${bidi}`, cwd: `/w/${bidi}` };
    session.messages.push({
      role: "user",
      timestamp: "2026-03-01T10:00:00.000Z",
      content: [{ type: "text", text: `invoice\u202efdp.exe ${bidi}` }],
    });
    const page = renderHtml(session);
    expect(page).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(page).toContain("invoice&lt;U+202E&gt;fdp.exe");
    expect(escapeHtml(bidi)).toBe(
      "&lt;U+202A&gt;&lt;U+202B&gt;&lt;U+202C&gt;&lt;U+202D&gt;&lt;U+202E&gt;&lt;U+2066&gt;&lt;U+2067&gt;&lt;U+2068&gt;&lt;U+2069&gt;",
    );
  });

  it("a hostile transcript yields no markup of its own: only the page's tags", () => {
    const page = renderHtml(hostileSession());
    expect(page).not.toMatch(/<script|<iframe|<svg|<b>/i);
    // No tag carries an event handler or a script URL (in text they are escaped, so harmless).
    const withHandlers = [...page.matchAll(/<[a-zA-Z][^>]*>/g)].filter((tag) =>
      /\son[a-z]+\s*=|javascript:/i.test(tag[0]),
    );
    expect(withHandlers).toEqual([]);
    for (const hostile of hostileStrings) expect(page).toContain(escapeHtml(hostile));
    // Every tag in the page is one the renderer writes.
    const tags = new Set(
      [...page.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((match) =>
        (match[1] as string).toLowerCase(),
      ),
    );
    const allowed =
      "html head meta title style body main header h1 h2 dl dt dd span section article div a time details summary pre code figure figcaption img ul li footer";
    expect([...tags].filter((tag) => !allowed.split(" ").includes(tag))).toEqual([]);
  });

  it("roles and context kinds are escaped too, for callers that skip validation", () => {
    const session = hostileSession();
    const hostile = '"><script>x</script>';
    session.messages.push({
      role: hostile as "user",
      timestamp: "2026-03-01T10:00:00.000Z",
      context: { kind: hostile as "system" },
      content: [],
    });
    const page = renderHtml(session);
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain(escapeHtml(hostile));
  });

  it("images become data: URLs only for raster types in plain base64", () => {
    expect(imageDataUrl("image/png", "iVBORw0KGgo=")).toBe("data:image/png;base64,iVBORw0KGgo=");
    expect(imageDataUrl("image/svg+xml", "PHN2Zz4=")).toBeUndefined();
    expect(imageDataUrl('image/png" onerror="x', "AAAA")).toBeUndefined();
    expect(imageDataUrl("image/png", '"><script>')).toBeUndefined();
    expect(renderHtml(smallSession())).toMatch(
      /<img src="data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/=]+" alt=/,
    );
  });

  it("the page refers to nothing outside itself", () => {
    const session = smallSession();
    session.messages.push({
      role: "user",
      timestamp: "2026-03-01T10:00:00.000Z",
      content: [{ type: "text", text: "see https://example.com/a.png and http://127.0.0.1/x" }],
    });
    const page = renderHtml(session);
    expect(page.match(/(?:src|href)="(?!data:image\/|#)[^"]*"/g)).toBeNull();
    expect(page).toContain(
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">",
    );
  });
});

describe("structure", () => {
  it("every message has its ordinal anchor, in order", () => {
    const session = longSession(40);
    const page = renderHtml(session);
    const ids = [...page.matchAll(/<article class="[^"]*" id="(m\d+)"/g)].map((match) => match[1]);
    expect(ids).toEqual(session.messages.map((_, index) => `m${index + 1}`));
  });

  it("a range shows only its ordinals and says so", () => {
    const page = renderHtml(longSession(10), { range: { from: 4, to: 6 } });
    const ids = [...page.matchAll(/<article class="[^"]*" id="(m\d+)"/g)].map((match) => match[1]);
    expect(ids).toEqual(["m4", "m5", "m6"]);
    expect(page).toContain("(showing #4–#6)");
    const empty = renderHtml(longSession(2), { range: { from: 9 } });
    expect(empty).not.toContain("<article");
    expect(empty).toContain("(none shown: the range is empty)");
  });

  it("title and harness options, header facts and totals", () => {
    const page = renderHtml(smallSession(), { title: "Review", harness: "codex" });
    expect(page).toContain("<title>Review</title>");
    expect(page).toContain("<dt>harness</dt><dd>codex</dd>");
    expect(page).toContain('<dt>branch</dt><dd><span class="mono">fix/range-bound</span></dd>');
    // 6 calls: Read, Edit, Bash, Task, Write in the main conversation, Grep in the subagent.
    expect(page).toContain("<dt>tool calls</dt><dd>6 (1 in subagents)</dd>");
    expect(page).toContain(
      "<dt>tokens</dt><dd>6,250 in · 920 out · 50,000 cache read · 3,125 cache write</dd>",
    );
    expect(page).toContain("<dt>messages</dt><dd>12 + 4 in subagents</dd>");
  });

  it("a subagent sits inside the call that spawned it, a result under its call", () => {
    const page = renderHtml(smallSession());
    const task = page.indexOf('<span class="name">Task</span>');
    const next = page.indexOf("<article", task);
    const callHtml = page.slice(task, next);
    expect(callHtml).toContain('<details class="subagent"');
    expect(callHtml).toContain("Explore: Find other callers");
    expect(callHtml).toContain("One caller: src/pages.ts:12");
    // The result's own message points back to the call.
    expect(page).toMatch(/↳ result of <a href="#c\d+">Task<\/a>, shown with the call in #7/);
  });

  it("compaction boundaries, injected context and thinking are marked", () => {
    const page = renderHtml(smallSession());
    expect(page).toMatch(
      /<article class="message user compaction" id="m9">.*compacted here \(auto, 152,000 tokens before\)/s,
    );
    expect(page).toMatch(
      /<article class="message user context" id="m1">.*injected by the harness: AGENTS.md/s,
    );
    expect(page).toContain('<details class="thinking"><summary>thinking · 13 words</summary>');
  });

  it("Bash as a command, Edit as a diff, Read as path and range, Write content folded", () => {
    const page = renderHtml(smallSession());
    expect(page).toContain('<pre class="command">pnpm test -- range</pre>');
    expect(page).toContain(
      '<span class="del">  for (let i = from; i &lt; to; i++) out.push(i);</span><span class="add">  for (let i = from; i &lt;= to; i++) out.push(i);</span>',
    );
    expect(page).toContain(
      '<span class="name">Read</span> <span class="key">src/range.ts</span> <span class="caption">lines 1–12</span>',
    );
    expect(page).toContain('<details class="content"><summary>content · 4 lines</summary>');
  });
});

describe("cutting long output", () => {
  it("shows the first lines and keeps every character behind show all", () => {
    const text = Array.from({ length: 100 }, (_, n) => `line ${n}`).join("\n");
    const out = cutPre(text, "output");
    expect(out).toContain("show all (70 more lines)");
    const pieces = [...out.matchAll(/<pre class="output">([\s\S]*?)<\/pre>/g)].map((match) =>
      decodeEntities(match[1] as string),
    );
    expect(pieces).toHaveLength(2);
    expect(pieces.join("")).toBe(text);
  });

  it("cuts one long line by characters, never inside a surrogate pair", () => {
    const text = "😀".repeat(4000);
    const out = cutPre(text);
    const pieces = [...out.matchAll(/<pre>([\s\S]*?)<\/pre>/g)].map((match) => match[1] as string);
    expect(pieces.join("")).toBe(text);
    expect(pieces[0]?.length).toBe(3000);
  });

  it("short output is not cut", () => {
    expect(cutPre("a\nb")).toBe("<pre>a\nb</pre>");
  });
});

describe("diffLines", () => {
  it("keeps common lines, marks the change", () => {
    expect(diffLines("a\nb\nc", "a\nB\nc")).toEqual([
      { kind: "same", text: "a" },
      { kind: "del", text: "b" },
      { kind: "add", text: "B" },
      { kind: "same", text: "c" },
    ]);
  });

  it("folds long unchanged runs, keeping three lines of context", () => {
    const before = Array.from({ length: 20 }, (_, n) => `l${n}`);
    const after = [...before];
    after[10] = "changed";
    const diff = diffLines(before.join("\n"), after.join("\n"));
    expect(diff[0]).toEqual({ kind: "gap", count: 7 });
    expect(diff.filter((line) => line.kind === "same")).toHaveLength(6);
    expect(diff[diff.length - 1]).toEqual({ kind: "gap", count: 6 });
  });

  it("falls back to all removed then all added when the table would be too large", () => {
    const before = Array.from({ length: 1500 }, (_, n) => `a${n}`).join("\n");
    const after = Array.from({ length: 1500 }, (_, n) => `b${n}`).join("\n");
    const diff = diffLines(before, after);
    expect(diff.filter((line) => line.kind === "del")).toHaveLength(1500);
    expect(diff.filter((line) => line.kind === "add")).toHaveLength(1500);
    expect(diff[0]).toEqual({ kind: "del", text: "a0" });
  });
});

it("renders an empty transcript", () => {
  const empty: Transcript = {
    meta: { id: "e", timestamp: "2026-03-01T10:00:00.000Z" },
    messages: [],
  };
  const page = renderHtml(empty);
  expect(page).toContain("<h1>e</h1>");
  expect(page).not.toContain("<article");
});

describe("tools outside the typed set", () => {
  const withTool = (tool: Transcript["messages"][number]["content"][number]): Transcript => ({
    meta: { id: "r", timestamp: "2026-03-01T10:00:00.000Z" },
    messages: [{ role: "assistant", timestamp: "2026-03-01T10:00:01.000Z", content: [tool] }],
  });

  it("a shell argv reads as its script, the input stays folded below", () => {
    const page = renderHtml(
      withTool({
        type: "tool_use",
        id: "s",
        tool: {
          name: "Raw",
          toolName: "shell",
          input: { command: ["bash", "-lc", "ls -la && cat <x>"], workdir: "/w" },
        },
      }),
    );
    expect(page).toContain(
      '<span class="name">shell</span></div><pre class="command">ls -la &amp;&amp; cat &lt;x&gt;</pre>',
    );
    expect(page).toContain('<details class="input"><summary>input</summary>');
  });

  it("a patch is coloured by line, a file path is the key input", () => {
    const patch = "*** Begin Patch\n*** Update File: a.ts\n@@\n-old line\n+new line\n*** End Patch";
    const page = renderHtml(
      withTool({
        type: "tool_use",
        id: "p",
        tool: { name: "Raw", toolName: "apply_patch", input: { input: patch, filePath: "a.ts" } },
      }),
    );
    expect(page).toContain('<span class="name">apply_patch</span> <span class="key">a.ts</span>');
    expect(page).toContain('<span class="del">old line</span><span class="add">new line</span>');
  });

  it("anything else is its JSON", () => {
    const page = renderHtml(
      withTool({
        type: "tool_use",
        id: "j",
        tool: { name: "Raw", toolName: "mcp__x", input: { q: 1 } },
      }),
    );
    expect(page).toContain('<pre class="json">{\n  &quot;q&quot;: 1\n}</pre>');
  });
});

it("a result made of text parts previews its text, not its JSON", () => {
  const page = renderHtml({
    meta: { id: "p", timestamp: "2026-03-01T10:00:00.000Z" },
    messages: [
      {
        role: "assistant",
        timestamp: "2026-03-01T10:00:01.000Z",
        content: [{ type: "tool_use", id: "t", tool: { name: "Raw", toolName: "x", input: {} } }],
      },
      {
        role: "user",
        timestamp: "2026-03-01T10:00:02.000Z",
        content: [
          {
            type: "tool_result",
            toolUseId: "t",
            isError: false,
            content: [{ type: "text", text: "first\nsecond" }],
          },
        ],
      },
    ],
  });
  expect(page).toContain("<summary>result · 2 lines — first</summary>");
});
