// A maintenance tool, not a test: rewrites every `<!-- txcript-help:NAME -->`
// block in docs/cli.md with the built bin's own `--help` output, so the doc
// quotes the help verbatim (packages/cli/test/docs.test.ts checks it). Build
// the CLI first (`pnpm build`).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = path.join(root, "packages/cli/dist/txcript.js");
const docPath = path.join(root, "docs/cli.md");
const doc = readFileSync(docPath, "utf8");
const updated = doc.replace(
  /<!-- txcript-help:([\w-]+) -->\n```text\n[\s\S]*?```\n<!-- \/txcript-help -->/g,
  (_, name) => {
    const args = name === "main" ? ["--help"] : [name, "--help"];
    const help = execFileSync(process.execPath, [bin, ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: "/nonexistent", NO_COLOR: "1" },
    });
    return `<!-- txcript-help:${name} -->\n\`\`\`text\n${help}\`\`\`\n<!-- /txcript-help -->`;
  },
);
writeFileSync(docPath, updated);
console.log(updated === doc ? "docs/cli.md was current" : "docs/cli.md help blocks rewritten");
