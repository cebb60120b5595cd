// Laws over generated transcripts (every Common v2 feature and the odd
// shapes, from core's arbitraries): the page always renders, every message
// has its anchor once and in order, its text is in the page escaped, the
// only tags are the renderer's own, none carries a handler, and every
// element the page opens it closes.
import type { Subagent, Transcript } from "@txcript/core";
import { oddShapesArbitrary, transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "./html-escape.js";
import { renderHtml } from "./html-render.js";

const pageTags = new Set(
  "html head meta title style body main header h1 h2 dl dt dd span section article div a time details summary pre code figure figcaption img ul li footer".split(
    " ",
  ),
);
const closed = [
  "article",
  "details",
  "summary",
  "pre",
  "div",
  "section",
  "figure",
  "ul",
  "li",
  "span",
  "a",
];

function allTexts(transcript: Transcript): string[] {
  const texts: string[] = [];
  const visit = (messages: Transcript["messages"]) => {
    for (const message of messages)
      for (const block of message.content)
        if (block.type === "text" && !block.text.includes("```")) texts.push(block.text);
  };
  visit(transcript.messages);
  const subagents = (list: readonly Subagent[] | undefined) => {
    for (const subagent of list ?? []) {
      visit(subagent.messages);
      subagents(subagent.subagents);
    }
  };
  subagents(transcript.subagents);
  return texts;
}

function checkPage(transcript: Transcript): void {
  const page = renderHtml(transcript);
  const anchors = [...page.matchAll(/<article class="[^"]*" id="(m\d+)"/g)].map(
    (match) => match[1],
  );
  expect(anchors).toEqual(transcript.messages.map((_, index) => `m${index + 1}`));
  const missing = allTexts(transcript).filter((text) => !page.includes(escapeHtml(text)));
  expect(missing).toEqual([]);
  const foreign: string[] = [];
  for (const [tag, name, attributes] of page.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g))
    if (
      !pageTags.has((name as string).toLowerCase()) ||
      /\son[a-z]+\s*=|javascript:/i.test(attributes as string)
    )
      foreign.push(tag);
  expect(foreign).toEqual([]);
  const unbalanced = closed.filter(
    (name) => page.split(new RegExp(`<${name}[\\s>]`)).length !== page.split(`</${name}>`).length,
  );
  expect(unbalanced).toEqual([]);
}

describe("renderHtml laws", () => {
  it("on generated transcripts: anchors, escaped text, only the page's own tags, balanced", () => {
    fc.assert(fc.property(transcriptArbitrary(), checkPage), lawParameters());
  });

  it("on the odd shapes", () => {
    fc.assert(fc.property(oddShapesArbitrary(), checkPage), lawParameters());
  });
});
