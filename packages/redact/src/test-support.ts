// Real-format FAKE secrets for the redaction tests and the bench. Each is
// built from pieces at run time (prefixes split, bodies from a seeded
// generator) so this repository carries no literal that secret scanners
// flag. None of them was ever a live credential.
import type { Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";

const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const lower = "abcdefghijklmnopqrstuvwxyz";
const digits = "0123456789";
const alphanumeric = upper + lower + digits;
const base64 = alphanumeric + "+/";
const base64url = alphanumeric + "-_";

/** A small deterministic generator (mulberry32), so a seed names one set of fakes. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(random: () => number, alphabet: string, length: number): string {
  let out = "";
  for (let index = 0; index < length; index += 1)
    out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

function base64UrlOf(text: string): string {
  return Buffer.from(text).toString("base64url");
}

/** One fake of every kind the corpus seeds, from one seed. */
export function fakeSecrets(seed: number) {
  const random = seeded(seed);
  const awsAccessKey = ["AK", "IA"].join("") + pick(random, upper + "234567", 16);
  const awsSecretKey = pick(random, base64, 40);
  const githubClassic = ["gh", "p_"].join("") + pick(random, alphanumeric, 36);
  const githubFineGrained =
    ["github", "_pat_"].join("") +
    pick(random, alphanumeric, 22) +
    "_" +
    pick(random, alphanumeric, 59);
  const slackBot =
    ["xo", "xb-"].join("") +
    pick(random, digits, 12) +
    "-" +
    pick(random, digits, 13) +
    "-" +
    pick(random, alphanumeric, 24);
  const openaiMarker = ["T3Blbk", "FJ"].join("");
  const openai =
    ["sk", "-proj-"].join("") +
    pick(random, base64url, 74) +
    openaiMarker +
    pick(random, base64url, 74);
  const anthropic = ["sk", "-ant-", "api03-"].join("") + pick(random, base64url, 93) + "AA";
  // A DER SEQUENCE starts "MI" in base64, which the privatekey rule checks for.
  const pemBody = [
    "MIIE",
    pick(random, base64, 60),
    ...Array.from({ length: 5 }, () => pick(random, base64, 64)),
  ].join("");
  const pemLines = pemBody.match(/.{1,64}/g)!.join("\n");
  const pemLabel = ["RSA PRIVATE", " KEY"].join("");
  const privateKey = `-----BEGIN ${pemLabel}-----\n${pemLines}\n-----END ${pemLabel}-----`;
  const jwt = [
    base64UrlOf(JSON.stringify({ alg: "HS256", typ: "JWT" })),
    base64UrlOf(JSON.stringify({ sub: pick(random, digits, 10), name: "Fake Person", iat: 1 })),
    pick(random, base64url, 43),
  ].join(".");
  const databasePassword = pick(random, alphanumeric, 18);
  const postgres =
    ["postgres", "://"].join("") + `app_user:${databasePassword}@db.internal:5432/prod`;
  const bearer = pick(random, alphanumeric, 32);
  const apiKeyValue = pick(random, alphanumeric, 28);
  return {
    awsAccessKey,
    awsSecretKey,
    githubClassic,
    githubFineGrained,
    slackBot,
    openai,
    anthropic,
    privateKey,
    jwt,
    postgres,
    databasePassword,
    bearer,
    apiKeyValue,
  };
}

export type FakeSecrets = ReturnType<typeof fakeSecrets>;

/** A corpus transcript: fakes in every place a secret can stand, and what must be found. */
export interface SeededCorpus {
  transcript: Transcript;
  /** Every secret (and secret part) that must be gone after redaction. */
  secrets: string[];
  /** Exact count per kind. */
  expected: Record<string, number>;
  /** Exact message ordinals per kind. */
  messages: Record<string, number[]>;
  /** Strings that must survive unchanged (ids, look-alikes that are not secrets). */
  survivors: string[];
}

const at = (second: number) => `2026-03-01T10:00:${String(second).padStart(2, "0")}.000Z`;

/** One session with every kind of fake in text, thinking, tool inputs, outputs, a compaction and a subagent. */
export function seededCorpus(seed: number): SeededCorpus {
  const f = fakeSecrets(seed);
  const random = seeded(seed + 1000);
  const callId = (n: number) => `toolu_01${pick(random, alphanumeric, 22)}${n}`;
  const [bash, task, write, query, edit] = [1, 2, 3, 4, 5].map(callId) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const gitSha = pick(random, "0123456789abcdef", 40);
  const survivors = [
    bash,
    task,
    write,
    query,
    edit,
    gitSha,
    "token: string;",
    "password: process.env.DB_PASSWORD",
    "postgres://localhost/app",
    "secretlint-disable",
  ] as string[];
  const transcript: Transcript = {
    meta: {
      id: `session-${seed}-${pick(random, alphanumeric, 32)}`,
      timestamp: at(0),
      cwd: "/work/app",
    },
    messages: [
      {
        role: "user",
        timestamp: at(1),
        content: [
          {
            type: "text",
            text: `<!-- secretlint-disable -->\nMy key is ${f.awsAccessKey} and\nAWS_SECRET_ACCESS_KEY=${f.awsSecretKey}\nat commit ${gitSha}`,
          },
        ],
      },
      {
        role: "assistant",
        timestamp: at(2),
        model: "claude-test",
        content: [
          { type: "thinking", text: `The user pasted ${f.githubClassic}; do not echo it.` },
          {
            type: "tool_use",
            id: bash,
            tool: {
              name: "Bash",
              input: {
                command: `curl -H "Authorization: Bearer ${f.bearer}" https://api.example.com/v1`,
              },
            },
          },
          {
            type: "tool_use",
            id: task,
            tool: { name: "Task", input: { description: "check config", prompt: "look at .env" } },
          },
        ],
      },
      {
        role: "user",
        timestamp: at(3),
        content: [
          {
            type: "tool_result",
            toolUseId: bash,
            isError: false,
            content: `OPENAI_API_KEY=${f.openai}\nANTHROPIC_API_KEY=${f.anthropic}\ntoken: string;\npassword: process.env.DB_PASSWORD`,
          },
        ],
      },
      {
        role: "assistant",
        timestamp: at(4),
        content: [
          {
            type: "tool_use",
            id: write,
            tool: {
              name: "Write",
              input: { file_path: "/home/u/.ssh/id_rsa", content: f.privateKey },
            },
          },
          {
            type: "tool_use",
            id: query,
            tool: {
              name: "Raw",
              toolName: "mcp__db__query",
              input: {
                connection: f.postgres,
                api_key: f.apiKeyValue,
                fallback: "postgres://localhost/app",
              },
            },
          },
        ],
      },
      {
        role: "user",
        timestamp: at(5),
        content: [
          { type: "tool_result", toolUseId: write, isError: false, content: "written" },
          {
            type: "tool_result",
            toolUseId: query,
            isError: false,
            content: { stdout: `session token=${f.jwt}`, rows: [{ slack: f.slackBot }] },
          },
        ],
      },
      {
        role: "assistant",
        timestamp: at(6),
        content: [
          {
            type: "tool_use",
            id: edit,
            tool: {
              name: "Edit",
              input: {
                file_path: "/work/app/config.ts",
                old_string: `const gh = "${f.githubFineGrained}";`,
                new_string: "const gh = process.env.GH_TOKEN;",
              },
            },
          },
        ],
      },
      {
        role: "user",
        timestamp: at(7),
        content: [
          {
            type: "compaction",
            summary: `Earlier the user shared ${f.githubClassic} by mistake.`,
            trigger: "auto",
          },
        ],
      },
    ],
    subagents: [
      {
        id: `agent-${seed}`,
        toolUseId: task,
        title: "check config",
        messages: [
          { role: "user", timestamp: at(8), content: [{ type: "text", text: "look at .env" }] },
          {
            role: "assistant",
            timestamp: at(9),
            content: [{ type: "text", text: `.env has SLACK_BOT=${f.slackBot}` }],
          },
        ],
      },
    ],
  };
  return {
    transcript,
    secrets: [
      f.awsAccessKey,
      f.awsSecretKey,
      f.githubClassic,
      f.githubFineGrained,
      f.slackBot,
      f.openai,
      f.anthropic,
      f.privateKey.split("\n")[1] as string,
      f.jwt,
      f.databasePassword,
      f.bearer,
      f.apiKeyValue,
    ],
    expected: {
      "aws-access-key": 1,
      "aws-secret-key": 1,
      "github-token": 3,
      "authorization-header": 1,
      "openai-api-key": 1,
      "anthropic-api-key": 1,
      "private-key": 1,
      "connection-string": 1,
      "secret-value": 1,
      jwt: 1,
      "slack-token": 2,
    },
    messages: {
      "aws-access-key": [1],
      "aws-secret-key": [1],
      "github-token": [2, 6, 7],
      "authorization-header": [2],
      "openai-api-key": [3],
      "anthropic-api-key": [3],
      "private-key": [4],
      "connection-string": [4],
      "secret-value": [4],
      jwt: [5],
      "slack-token": [2, 5],
    },
    survivors,
  };
}

/**
 * A generated transcript (core's arbitraries, a copy: generated values may
 * share objects between runs) with a fake secret appended to some of its
 * text blocks, and those secrets as the text holds them. With
 * `splitPrivateKey`, a private key's two halves, cut at a line break, also
 * end the second-to-last text block and start the last (a secret split
 * across messages).
 */
export function seededTranscriptArbitrary(
  options: { splitPrivateKey?: boolean } = {},
): fc.Arbitrary<{ transcript: Transcript; secrets: string[] }> {
  return fc
    .tuple(transcriptArbitrary(), fc.nat(), fc.nat({ max: 3 }))
    .map(([generated, seed, every]) => {
      const transcript = structuredClone(generated);
      const f = fakeSecrets(seed);
      const pool = [
        f.githubClassic,
        f.slackBot,
        f.anthropic,
        f.openai,
        `AWS_SECRET_ACCESS_KEY=${f.awsSecretKey}`,
        f.jwt,
      ];
      const secrets: string[] = [];
      const texts = transcript.messages.flatMap((message) =>
        message.content.filter((block) => block.type === "text"),
      );
      texts.forEach((block, index) => {
        if (index % (every + 1) !== 0) return;
        const secret = pool[secrets.length % pool.length] as string;
        block.text = `${block.text} ${secret} `;
        secrets.push(secret.replace("AWS_SECRET_ACCESS_KEY=", ""));
      });
      const [first, second] = texts.slice(-2);
      if (options.splitPrivateKey === true && first !== undefined && second !== undefined) {
        const lines = f.privateKey.split("\n");
        const half = Math.floor(lines.length / 2);
        first.text = `${first.text}\n${lines.slice(0, half).join("\n")}`;
        second.text = `${lines.slice(half).join("\n")}\n${second.text}`;
      }
      return { transcript, secrets };
    });
}
