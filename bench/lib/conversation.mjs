// Deterministic synthetic coding-agent conversations for the benchmark
// corpora: prompts, thinking, text, Amp-dialect tool calls (Bash, Read,
// edit_file, create_file, glob, Grep, finder) and their results, grown to a
// target size. The shape is harness-neutral; amp-writer.mjs and
// stream-json-writer.mjs render the same conversation in each format.
import { seeded } from "./random.mjs";

const words = (
  "the a function returns value when test fails because index loop bound off by one " +
  "file module import export type interface parser reads writes stream line buffer " +
  "error message should handle empty input case check cache result build config path " +
  "directory thread session convert common model codec store list view json schema " +
  "token usage assistant user tool call output exit code diff patch branch commit merge " +
  "refactor rename extract helper keep behavior same add coverage for regression fixed"
).split(" ");

const codeFragments = [
  "export function {n}(input: string): number {",
  "  const {n} = input.split('\\n').filter(Boolean);",
  "  for (let i = 0; i < {n}.length; i++) {",
  "    if ({n}[i] === undefined) continue;",
  "  return {n}.reduce((total, item) => total + item.size, 0);",
  "}",
  "import { {n} } from './{n}.js';",
  "  // keep the order stable: callers rely on it",
  "  throw new Error('unexpected ' + {n});",
  "  await fs.writeFile(path.join(root, '{n}.json'), JSON.stringify(data));",
  "describe('{n}', () => {",
  "  it('handles an empty {n}', () => expect({n}([])).toEqual([]));",
  "const {n} = new Map<string, number>();",
  "  if (!{n}.has(key)) {n}.set(key, []);",
  "    {n}.push({ id: {n}.length, name });",
];

const models = [
  "claude-sonnet-4-5-20250929",
  "claude-opus-4-5-20251101",
  "claude-haiku-4-5-20251001",
];
const tools = ["Bash", "Read", "Read", "edit_file", "create_file", "glob", "Grep", "finder"];

function makeText(random, length) {
  const parts = [];
  let size = 0;
  while (size < length) {
    const word = random.pick(words);
    parts.push(word);
    size += word.length + 1;
    if (random.chance(0.08)) {
      parts.push(".\n");
      size += 2;
    }
  }
  const text = parts.join(" ");
  return text.length > length ? text.slice(0, Math.max(1, length)) : text;
}

function makeCode(random, length) {
  const lines = [];
  let size = 0;
  let number = random.int(1, 400);
  while (size < length) {
    const line = `${String(number).padStart(5)}\t${random.pick(codeFragments).replaceAll("{n}", random.pick(words))}`;
    lines.push(line);
    size += line.length + 1;
    number++;
  }
  return lines.join("\n");
}

function makePath(random, cwd) {
  return `${cwd}/src/${random.pick(words)}/${random.pick(words)}-${random.pick(words)}.ts`;
}

function toolCall(random, cwd, budget) {
  const name = random.pick(tools);
  const id = `toolu_01${random.base62(22)}`;
  const outputLength = random.int(Math.min(200, budget), Math.max(200, budget));
  const failed = random.chance(0.05);
  let input;
  let result;
  switch (name) {
    case "Bash": {
      input = { cmd: `pnpm vitest run ${random.pick(words)}`, cwd };
      result = { output: makeCode(random, outputLength), exitCode: failed ? 1 : 0 };
      break;
    }
    case "Read": {
      const first = random.int(1, 300);
      input = { path: makePath(random, cwd), read_range: [first, first + random.int(20, 200)] };
      result = makeCode(random, outputLength);
      break;
    }
    case "edit_file": {
      input = {
        path: makePath(random, cwd),
        old_str: makeCode(random, random.int(40, 400)),
        new_str: makeCode(random, random.int(40, 400)),
      };
      result = { diff: makeCode(random, Math.min(outputLength, 2000)), lineRange: [3, 14] };
      break;
    }
    case "create_file": {
      const path = makePath(random, cwd);
      input = { path, content: makeCode(random, outputLength) };
      result = `Successfully created file ${path}`;
      break;
    }
    case "glob": {
      input = { filePattern: `src/**/*${random.pick(words)}*.ts` };
      const count = Math.max(1, Math.floor(outputLength / 50));
      result = Array.from({ length: count }, () => makePath(random, cwd));
      break;
    }
    case "Grep": {
      input = { pattern: random.pick(words), path: `${cwd}/src` };
      result = makeCode(random, outputLength).split("\n");
      break;
    }
    default: {
      input = { query: makeText(random, random.int(30, 120)) };
      result = makeText(random, outputLength);
    }
  }
  const run = failed
    ? { status: "error", error: { message: makeText(random, 80) } }
    : { status: "done", result };
  return { use: { id, name, input }, run };
}

/**
 * A conversation of about `targetBytes` once written as an Amp thread.
 * `estimate(message)` is the rendered size of one message (the writer
 * knows its own overhead); generation stops when the sum reaches the target.
 */
export function generateConversation(seed, targetBytes, estimate) {
  const random = seeded(seed);
  const cwd = `/home/dev/${random.pick(words)}-${random.pick(words)}`;
  const created = Date.UTC(2026, 0, 5) + random.int(0, 60 * 86_400) * 1000;
  const conversation = {
    id: `T-${random.uuid()}`,
    created,
    title: makeText(random, random.int(20, 60)).replaceAll("\n", " "),
    cwd,
    branch: random.pick(["main", "fix/loop-bound", "feature/stream"]),
    model: random.pick(models),
    clientVersion: `0.0.${1768000000 + random.int(0, 999999)}-g${random.hex(6)}`,
    messages: [],
  };
  let clock = created;
  let size = 700;
  const small = targetBytes < 8192;
  const push = (message) => {
    conversation.messages.push(message);
    size += estimate(message);
  };
  const assistant = (blocks, stopReason) => {
    clock += random.int(2000, 30000);
    const input = random.int(1, 20);
    const cacheRead = random.int(1000, 90000);
    const cacheCreation = random.int(0, 4000);
    push({
      role: "assistant",
      blocks,
      stopReason,
      at: clock,
      usage: {
        model: conversation.model,
        inputTokens: input,
        outputTokens: random.int(20, 2000),
        cacheReadInputTokens: cacheRead,
        cacheCreationInputTokens: cacheCreation,
        totalInputTokens: input + cacheRead + cacheCreation,
      },
    });
  };
  while (size < targetBytes) {
    clock += random.int(10_000, 600_000);
    const remaining = targetBytes - size;
    push({
      role: "user",
      kind: "prompt",
      text: makeText(random, small ? Math.min(160, remaining / 3) : random.int(40, 600)),
      sentAt: clock,
    });
    if (!small) {
      const rounds = random.int(1, 6);
      for (let round = 0; round < rounds && size < targetBytes; round++) {
        const calls = Array.from({ length: random.chance(0.2) ? 2 : 1 }, () =>
          toolCall(random, cwd, Math.min(8000, Math.max(200, targetBytes / 16))),
        );
        const blocks = [
          {
            type: "thinking",
            text: makeText(random, random.int(100, 1200)),
            signature: random.base62(random.int(100, 300)),
          },
          { type: "text", text: makeText(random, random.int(30, 400)) },
          ...calls.map((call) => ({ type: "tool_use", ...call.use })),
        ];
        assistant(blocks, "tool_use");
        push({
          role: "user",
          kind: "results",
          results: calls.map((call) => ({ toolUseId: call.use.id, run: call.run })),
        });
      }
    }
    const replyLength = small ? Math.max(20, targetBytes - size - 900) : random.int(50, 1500);
    assistant([{ type: "text", text: makeText(random, replyLength) }], "end_turn");
    // A small thread is one exchange, its reply sized to the target.
    if (small) break;
  }
  return conversation;
}
