// A maintenance tool, not a test: rewrites fixtures/claude-code/<name>.common.json
// from each <name>.jsonl (with its <name>/subagents/agent-*.jsonl files) through the codec. Run it after a deliberate change
// to the reading rules, then review the diff by eye before committing:
//   pnpm exec tsx --conditions @txcript/source scripts/regenerate-fixtures.ts
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { readSubagentFiles, subagentDirectory } from "../src/claude-code-subagent-files.js";
import { claudeCodeCodec } from "../src/index.js";

const directory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/claude-code",
);
for (const name of readdirSync(directory)
  .filter((entry) => entry.endsWith(".jsonl"))
  .sort()) {
  const file = path.join(directory, name);
  const subagentFiles = await readSubagentFiles(subagentDirectory(file));
  const transcript = claudeCodeCodec.toCommon({
    ...claudeCodeCodec.parse(readFileSync(file, "utf8")),
    subagentFiles,
  });
  const target = path.join(directory, name.replace(/\.jsonl$/, ".common.json"));
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
