// The page's one stylesheet, inlined: system fonts only, colours from custom
// properties switched by prefers-color-scheme, a single readable column that
// fits a phone, and <details> for everything collapsible (no script needed).

export const pageStyle = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --card: #f6f8fa;
  --user: #ddf4ff; --user-line: #54aeff; --assistant: #ffffff; --accent: #0969da;
  --code: #f6f8fa; --add: #dafbe1; --add-fg: #116329; --del: #ffebe9; --del-fg: #82071e;
  --warn: #fff8c5; --warn-line: #d4a72c; --error: #cf222e; --context: #f3eefc; --context-line: #8250df;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --card: #151b23;
    --user: #0c2d4b; --user-line: #1f6feb; --assistant: #0d1117; --accent: #4493f8;
    --code: #151b23; --add: #12361f; --add-fg: #7ee787; --del: #3c1618; --del-fg: #ffa198;
    --warn: #3b2e00; --warn-line: #9e6a03; --error: #f85149; --context: #231a36; --context-line: #a371f7;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", system-ui, Roboto, "Helvetica Neue", Arial, sans-serif;
}
main { max-width: 920px; margin: 0 auto; padding: 12px; }
pre, code, .mono { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
pre { margin: 0; padding: 8px 10px; background: var(--code); border-radius: 6px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
a { color: var(--accent); }
header.session { border-bottom: 1px solid var(--line); padding-bottom: 10px; margin-bottom: 12px; }
header.session h1 { font-size: 20px; margin: 0 0 6px; overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; font-size: 13px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.message { border: 1px solid var(--line); border-radius: 8px; margin: 10px 0; padding: 8px 10px; background: var(--assistant); scroll-margin-top: 8px; }
.message.user { background: var(--user); border-left: 4px solid var(--user-line); }
.message.context { background: var(--context); border-left: 4px solid var(--context-line); }
.message:target { outline: 2px solid var(--accent); }
.message > .head { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; font-size: 12px; color: var(--muted); margin-bottom: 4px; }
.head .ordinal { font-weight: 600; color: var(--accent); text-decoration: none; }
.head .role { font-weight: 600; color: var(--fg); text-transform: uppercase; letter-spacing: .03em; }
.badge { display: inline-block; border: 1px solid var(--line); border-radius: 10px; padding: 0 6px; font-size: 11px; color: var(--muted); }
.badge.context { border-color: var(--context-line); color: var(--context-line); }
.badge.error { border-color: var(--error); color: var(--error); }
.text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
.text pre { margin: 6px 0; }
details { margin: 6px 0; }
details > summary { cursor: pointer; color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
details > summary:hover { color: var(--fg); }
details.thinking > div { font-style: italic; color: var(--muted); white-space: pre-wrap; overflow-wrap: anywhere; border-left: 3px solid var(--line); padding-left: 8px; }
.tool { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 6px 8px; background: var(--card); }
.tool > .call { display: flex; flex-wrap: wrap; gap: 6px; align-items: baseline; }
.tool .name { font-weight: 600; }
.tool .key { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; overflow-wrap: anywhere; }
.tool .caption { color: var(--muted); font-size: 13px; }
pre.command::before { content: "$ "; color: var(--muted); }
.diff { padding: 0; }
.diff span { display: block; padding: 0 10px; }
.diff .add { background: var(--add); color: var(--add-fg); }
.diff .del { background: var(--del); color: var(--del-fg); }
.diff .add::before { content: "+ "; }
.diff .del::before { content: "- "; }
.diff .same::before { content: "  "; }
.diff .gap { color: var(--muted); }
details.result.error > summary { color: var(--error); }
.cut > pre + details > summary { margin-top: 2px; }
.cut > details > pre { border-top-left-radius: 0; border-top-right-radius: 0; }
.message.relay { padding: 2px 10px; }
.message.relay > .head { margin-bottom: 0; }
.result-note { font-size: 12px; color: var(--muted); margin: 4px 0; }
figure.image { margin: 6px 0; }
figure.image img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figure.image figcaption { font-size: 12px; color: var(--muted); }
.compaction { border: 2px dashed var(--warn-line); background: var(--warn); border-radius: 8px; padding: 8px 10px; margin: 16px 0; }
.compaction .boundary { font-weight: 600; text-align: center; }
details.subagent { border-left: 3px solid var(--accent); padding-left: 8px; margin-left: 4px; }
details.subagent .message { margin: 8px 0; }
ul.todos { margin: 4px 0; padding-left: 20px; }
ul.todos .completed { text-decoration: line-through; color: var(--muted); }
footer { color: var(--muted); font-size: 12px; text-align: center; margin: 24px 0 8px; }
@media (max-width: 520px) {
  main { padding: 8px; }
  .message { padding: 6px 8px; }
  dl.facts { gap: 0 8px; }
}
`;
