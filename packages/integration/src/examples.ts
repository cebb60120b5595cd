// Finds the code examples in the READMEs and docs so a test can run them.
// `ts` blocks are type-checked and run from the repository root; `sh`
// blocks run in bash in a scratch directory with `fixtures/` linked in. An HTML comment on the line before
// a block changes that: `<!-- example: skip (why) -->` or `<!-- example: exit 2 -->`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./workspace.js";

export interface Example {
  file: string;
  line: number;
  language: "ts" | "sh";
  code: string;
  skip?: string;
  exitCode: number;
}

const typescript = new Set(["ts", "typescript"]);
const shell = new Set(["sh", "bash", "shell"]);

function markdownFiles(): string[] {
  const files = [path.join(repoRoot, "README.md")];
  for (const entry of readdirSync(path.join(repoRoot, "packages"))) {
    const readme = path.join(repoRoot, "packages", entry, "README.md");
    if (statSync(readme, { throwIfNoEntry: false })?.isFile()) files.push(readme);
  }
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory() && entry.name !== "schema") walk(full);
      else if (entry.isFile() && entry.name.endsWith(".md")) files.push(full);
    }
  };
  walk(path.join(repoRoot, "docs"));
  return files;
}

export function findExamples(): Example[] {
  const examples: Example[] = [];
  for (const file of markdownFiles()) {
    const lines = readFileSync(file, "utf8").split("\n");
    for (let index = 0; index < lines.length; index += 1) {
      const open = /^(\s*)```(\w+)?\s*$/.exec(lines[index] as string);
      if (!open) continue;
      const language = (open[2] ?? "").toLowerCase();
      const start = index;
      const body: string[] = [];
      for (
        index += 1;
        index < lines.length && !/^\s*```\s*$/.test(lines[index] as string);
        index += 1
      )
        body.push(lines[index] as string);
      const kind = typescript.has(language) ? "ts" : shell.has(language) ? "sh" : undefined;
      if (!kind) continue;
      const marker = /<!--\s*example:\s*(skip|exit)\s*(.*?)\s*-->/.exec(lines[start - 1] ?? "");
      const example: Example = {
        file: path.relative(repoRoot, file),
        line: start + 1,
        language: kind,
        code: body.join("\n"),
        exitCode: 0,
      };
      if (marker?.[1] === "skip") example.skip = marker[2] || "marked skip";
      // Registry installs are what the pack-and-install test proves offline.
      else if (kind === "sh" && /^\s*(npm (install|i)|pnpm add|yarn add)\b/.test(example.code))
        example.skip = "an install from the registry (install.test.ts covers it)";
      if (marker?.[1] === "exit") example.exitCode = Number(marker[2]);
      examples.push(example);
    }
  }
  return examples;
}
