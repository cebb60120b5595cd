// @txcript/html: one self-contained HTML page of a transcript, to share or
// review: messages, thinking, tool calls (commands, diffs, paths), results,
// images, subagents and compaction boundaries. No script, no network.
export { escapeHtml } from "./html-escape.js";
export type { RenderHtmlOptions } from "./html-render.js";
export { renderHtml } from "./html-render.js";
