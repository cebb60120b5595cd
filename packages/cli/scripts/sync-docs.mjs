// A maintenance tool, not a test: rewrites the help blocks of docs/cli.md
// from the built bin (`<!-- txcript-help:<command> -->` … `<!-- /txcript-help -->`).
// Run after changing a help text: `pnpm --filter @txcript/cli build && node packages/cli/scripts/sync-docs.mjs`.
// The test in test/docs.test.ts fails while the two disagree.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const doc = path.resolve(packageRoot, "../../docs/cli.md");
const bin = path.join(packageRoot, "dist/txcript.js");
const help = (command) =>
  execFileSync(process.execPath, [bin, ...(command === "main" ? [] : [command]), "--help"], {
    encoding: "utf8",
  });
const text = readFileSync(doc, "utf8").replace(
  /<!-- txcript-help:([\w-]+) -->\n[\s\S]*?<!-- \/txcript-help -->/g,
  (_, command) =>
    `<!-- txcript-help:${command} -->\n\`\`\`text\n${help(command)}\`\`\`\n<!-- /txcript-help -->`,
);
writeFileSync(doc, text);
