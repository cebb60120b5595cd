import { type Block, Transcript } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { redactionMarker, redactTranscript } from "./redact-transcript.js";
import { fakeSecrets, seededCorpus } from "./test-support.js";

/** Every id, timestamp, tool name and block type, in order: what redaction must leave alone. */
function skeleton(transcript: Transcript): unknown {
  const blocks = (content: Block[]) =>
    content.map((block) =>
      block.type === "tool_use"
        ? [
            block.type,
            block.id,
            block.tool.name,
            block.tool.name === "Raw" ? block.tool.toolName : "",
            Object.keys(block.tool.input as object),
          ]
        : block.type === "tool_result"
          ? [block.type, block.toolUseId, block.isError, typeof block.content]
          : [block.type],
    );
  return {
    meta: { ...transcript.meta, title: undefined },
    messages: transcript.messages.map((message) => [
      message.role,
      message.timestamp,
      message.model,
      blocks(message.content),
    ]),
    subagents: transcript.subagents?.map((subagent) => [
      subagent.id,
      subagent.toolUseId,
      subagent.messages.map((message) => [
        message.role,
        message.timestamp,
        blocks(message.content),
      ]),
    ]),
  };
}

describe("redactTranscript on the seeded corpus", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`seed ${seed}: every secret gone, counts and ordinals exact, ids and structure untouched`, async () => {
      const corpus = seededCorpus(seed);
      const before = JSON.stringify(corpus.transcript);
      const { transcript, report } = await redactTranscript(corpus.transcript);
      const after = JSON.stringify(transcript);
      // The input is not changed, and the controls show the secrets were there.
      expect(JSON.stringify(corpus.transcript)).toBe(before);
      for (const secret of corpus.secrets) {
        expect(before).toContain(JSON.stringify(secret).slice(1, -1));
        expect(after).not.toContain(JSON.stringify(secret).slice(1, -1));
      }
      for (const survivor of corpus.survivors) expect(after).toContain(survivor);
      const counts = Object.fromEntries(
        Object.entries(report.kinds).map(([kind, entry]) => [kind, entry.count]),
      );
      expect(counts).toEqual(corpus.expected);
      const ordinals = Object.fromEntries(
        Object.entries(report.kinds).map(([kind, entry]) => [kind, entry.messages]),
      );
      expect(ordinals).toEqual(corpus.messages);
      expect(report.total).toBe(Object.values(corpus.expected).reduce((a, b) => a + b, 0));
      // Each marker appears exactly as often as its kind was counted.
      for (const [kind, count] of Object.entries(corpus.expected))
        expect(after.split(redactionMarker(kind)).length - 1).toBe(count);
      expect(skeleton(transcript)).toEqual(skeleton(corpus.transcript));
      expect(Transcript.safeParse(transcript).success).toBe(true);
      expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    });
  }

  it("says where: fields, subagent and its message", async () => {
    const corpus = seededCorpus(9);
    const { report } = await redactTranscript(corpus.transcript);
    const slack = report.locations.filter((location) => location.kind === "slack-token");
    expect(slack).toEqual([
      { kind: "slack-token", count: 1, field: "tool_result", message: 5 },
      {
        kind: "slack-token",
        count: 1,
        field: "text",
        message: 2,
        subagent: "agent-9",
        subagentMessage: 2,
      },
    ]);
    const github = report.locations.filter((location) => location.kind === "github-token");
    expect(github.map((location) => [location.field, location.message])).toEqual([
      ["thinking", 2],
      ["tool_input", 6],
      ["compaction", 7],
    ]);
  });

  it("redacting twice finds nothing more", async () => {
    const once = await redactTranscript(seededCorpus(3).transcript);
    const twice = await redactTranscript(once.transcript);
    expect(twice.report).toEqual({ total: 0, kinds: {}, locations: [] });
    expect(twice.transcript).toEqual(once.transcript);
  });

  it("positions: false keeps only the fixed-format rules", async () => {
    const { report } = await redactTranscript(seededCorpus(4).transcript, { positions: false });
    expect(Object.keys(report.kinds)).not.toContain("secret-value");
    expect(Object.keys(report.kinds)).not.toContain("jwt");
    expect(Object.keys(report.kinds)).not.toContain("authorization-header");
    expect(report.kinds["github-token"]?.count).toBe(3);
  });
});

describe("secret positions", () => {
  const session = (text: string): Transcript => ({
    meta: { id: "s", timestamp: "2026-03-01T10:00:00.000Z" },
    messages: [
      { role: "user", timestamp: "2026-03-01T10:00:01.000Z", content: [{ type: "text", text }] },
    ],
  });
  const redactedText = async (text: string) => {
    const { transcript } = await redactTranscript(session(text));
    return (transcript.messages[0]!.content[0] as { text: string }).text;
  };

  it("takes random values of credential-named keys, keeps the name", async () => {
    const value = fakeSecrets(11).apiKeyValue;
    expect(await redactedText(`export STRIPE_API_KEY=${value}`)).toBe(
      "export STRIPE_API_KEY=[redacted: secret-value]",
    );
    expect(await redactedText(`{"client_secret": "${value}"}`)).toBe(
      '{"client_secret": "[redacted: secret-value]"}',
    );
    expect(await redactedText(`DB_PASSWORD='c0rrect-h0rse'`)).toBe(
      "DB_PASSWORD='[redacted: secret-value]'",
    );
    expect(await redactedText(`GET /cb?access_token=${value}&state=ok`)).toBe(
      "GET /cb?access_token=[redacted: secret-value]&state=ok",
    );
  });

  it("takes the value of a credential-named command-line flag", async () => {
    const value = fakeSecrets(14).apiKeyValue;
    expect(await redactedText(`deploy --token ${value} --verbose`)).toBe(
      "deploy --token [redacted: secret-value] --verbose",
    );
    expect(await redactedText(`mysql -u app --password "${value}"`)).toBe(
      'mysql -u app --password "[redacted: secret-value]"',
    );
    for (const text of [
      "vitest --token-limit 4096",
      "cli --api-key --dry-run",
      "ls --secret-files docs/",
    ])
      expect(await redactedText(text)).toBe(text);
  });

  it("leaves words, references, paths, URLs and non-secret names", async () => {
    for (const text of [
      "token: string;",
      "const accessToken = getAccessTokenFromRefreshToken();",
      "password: process.env.DB_PASSWORD",
      ["api_key=$", "{API_KEY}"].join(""),
      "TOKEN_FILE=/var/run/secrets/token-2024",
      "token_url: https://auth.example.com/oauth2/token2",
      `commit=${"a1b2c3d4".repeat(5)}`,
      "max_tokens: 4096",
    ])
      expect(await redactedText(text)).toBe(text);
  });

  it("takes the credential of an Authorization header of any scheme", async () => {
    const value = fakeSecrets(12).bearer;
    expect(await redactedText(`Authorization: Basic ${value}`)).toBe(
      "Authorization: Basic [redacted: authorization-header]",
    );
    expect(await redactedText(`{"authorization": "token ${value}"}`)).toBe(
      '{"authorization": "token [redacted: authorization-header]"}',
    );
  });

  it("an OpenAI key whose last character is '-' (secretlint's rule misses it) is found, once", async () => {
    const marker = ["T3Blbk", "FJ"].join("");
    const key =
      ["sk", "-proj-"].join("") + "Ab1-".repeat(18) + "Xy" + marker + "Cd2_".repeat(18) + "Zz-";
    expect(await redactedText(`key ${key} and "${key}"`)).toBe(
      'key [redacted: openai-api-key] and "[redacted: openai-api-key]"',
    );
    const { report } = await redactTranscript(session(`OPENAI_API_KEY=${key.slice(0, -1)}Q`));
    expect(report.kinds).toEqual({ "openai-api-key": { count: 1, messages: [1] } });
  });

  it("an AWS secret key ending in '/', '+' or '=' (secretlint's rule misses it) is found, once", async () => {
    const body = fakeSecrets(15).awsSecretKey.slice(0, 39);
    for (const last of ["/", "+", "=", "Q"]) {
      const { transcript, report } = await redactTranscript(
        session(`aws_secret_access_key = ${body}${last}\n`),
      );
      expect((transcript.messages[0]!.content[0] as { text: string }).text).toBe(
        "aws_secret_access_key = [redacted: aws-secret-key]\n",
      );
      expect(report.total).toBe(1);
    }
  });

  it("a JWT in a Bearer header is named a jwt, once", async () => {
    const { jwt } = fakeSecrets(13);
    const { transcript, report } = await redactTranscript(session(`Authorization: Bearer ${jwt}`));
    expect((transcript.messages[0]!.content[0] as { text: string }).text).toBe(
      "Authorization: Bearer [redacted: jwt]",
    );
    expect(report.total).toBe(1);
  });
});

describe("tool output as agents see it", () => {
  const resultSession = (
    content: Transcript["messages"][number]["content"][number],
  ): Transcript => ({
    meta: { id: "s", timestamp: "2026-03-01T10:00:00.000Z" },
    messages: [
      {
        role: "assistant",
        timestamp: "2026-03-01T10:00:01.000Z",
        content: [
          {
            type: "tool_use",
            id: "toolu_1",
            tool: { name: "Bash", input: { command: "aws sts get-session-token" } },
          },
        ],
      },
      { role: "user", timestamp: "2026-03-01T10:00:02.000Z", content: [content] },
    ],
  });

  it("aws sts credentials JSON: key id, secret key and session token", async () => {
    const f = fakeSecrets(31);
    const sessionToken = f.awsSecretKey.replace(/[+/]/g, "x") + f.apiKeyValue + f.bearer;
    const accessKeyId = ["AS", "IA"].join("") + f.awsAccessKey.slice(4);
    const output = JSON.stringify(
      {
        Credentials: {
          AccessKeyId: accessKeyId,
          SecretAccessKey: f.awsSecretKey,
          SessionToken: sessionToken,
          Expiration: "2026-03-01T22:00:00Z",
        },
      },
      null,
      4,
    );
    const { transcript, report } = await redactTranscript(
      resultSession({ type: "tool_result", toolUseId: "toolu_1", isError: false, content: output }),
    );
    const text = (transcript.messages[1]!.content[0] as { content: string }).content;
    for (const secret of [accessKeyId, f.awsSecretKey, sessionToken])
      expect(text).not.toContain(secret);
    expect(text).toContain('"Expiration": "2026-03-01T22:00:00Z"');
    expect(
      Object.fromEntries(Object.entries(report.kinds).map(([kind, entry]) => [kind, entry.count])),
    ).toEqual({
      "aws-access-key": 1,
      "aws-secret-key": 1,
      "secret-value": 1,
    });
    expect(report.kinds["aws-secret-key"]?.messages).toEqual([2]);
  });

  it("a .env read back: every value that is a credential, nothing else", async () => {
    const f = fakeSecrets(32);
    const env = [
      "NODE_ENV=production",
      "PORT=8080",
      `DATABASE_URL=${f.postgres}`,
      `GITHUB_TOKEN=${f.githubClassic}`,
      `SESSION_SECRET=${f.apiKeyValue}`,
      `ANTHROPIC_API_KEY=${f.anthropic}`,
    ].join("\n");
    const { transcript, report } = await redactTranscript(
      resultSession({
        type: "tool_result",
        toolUseId: "toolu_1",
        isError: false,
        content: [{ type: "text", text: env }],
      }),
    );
    const content = (
      transcript.messages[1]!.content[0] as unknown as { content: { text: string }[] }
    ).content;
    expect(content[0]!.text).toBe(
      [
        "NODE_ENV=production",
        "PORT=8080",
        "DATABASE_URL=[redacted: connection-string]",
        "GITHUB_TOKEN=[redacted: github-token]",
        "SESSION_SECRET=[redacted: secret-value]",
        "ANTHROPIC_API_KEY=[redacted: anthropic-api-key]",
      ].join("\n"),
    );
    expect(report.total).toBe(4);
  });
});
