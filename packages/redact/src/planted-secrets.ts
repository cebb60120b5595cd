// The planted-secret corpus: a seeded, deterministic set of Common
// transcripts with FAKE secrets of every kind secretlint's recommended preset
// and gitleaks' default rules name, planted in every place a transcript holds
// text (text, thinking, a shell command, a tool call's JSON input, tool
// output, a compaction summary, a subagent, the session's title, working
// directory and git branch), beside benign lines that look close (commit ids,
// hashes, UUIDs, base64 image data, integrity strings, paths, URLs without a
// password, references to secrets by name). `measurePlanted` says how many
// secrets survive a redaction and how many benign lines it changed. Used by
// the recall test (planted-secrets.test.ts) and by `pnpm bench` (the redact
// suite, bench/lib/suite-redact.mjs), never shipped (package.json `files`).
// Every secret is made at run time from a seeded generator, prefixes split,
// so this file holds no literal a secret scanner flags; none was ever live.
import type { Block, Json, Message, Subagent, Transcript } from "@txcript/core";

const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const lower = "abcdefghijklmnopqrstuvwxyz";
const digits = "0123456789";
const hex = "0123456789abcdef";
const alnum = upper + lower + digits;
const base64 = `${alnum}+/`;
const base64url = `${alnum}-_`;

type Random = () => number;

/** mulberry32: a seed names one corpus. */
function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random: Random, alphabet: string, length: number): string => {
  let out = "";
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
};
const one = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
const j = (...pieces: string[]) => pieces.join("");

/** A secret made for planting: the text to plant, and the random parts that must not survive. */
interface Made {
  value: string;
  /** The parts of `value` that are the secret (a fixed prefix is not). */
  secret: string[];
}

const token = (prefix: string, body: string): Made => ({ value: prefix + body, secret: [body] });

/** base64url with at least one `-` and one `_` inside (where some rules stop). */
function withDashes(random: Random, length: number): string {
  const body = pick(random, base64url, length).split("");
  body[3 + Math.floor(random() * (length - 6))] = "-";
  body[3 + Math.floor(random() * (length - 6))] = "_";
  return body.join("");
}

function pem(random: Random, label: string, bodyChars: number, headers: string[] = []): Made {
  const body = pick(random, base64, bodyChars);
  const lines = body.match(/.{1,64}/g) as string[];
  const value = [
    `-----BEGIN ${label}-----`,
    ...headers,
    ...(headers.length > 0 ? [""] : []),
    ...lines,
    `-----END ${label}-----`,
  ].join("\n");
  return { value, secret: lines.filter((line) => line.length >= 12) };
}

const passwordCharacters = `${alnum}!$%^&*()+=~,;.-_@`;

/** A kind and how to make one. */
interface Kind {
  kind: string;
  make: (random: Random) => Made;
  /** How the secret stands in a line (neutral prose by default). */
  line?: (value: string, random: Random) => string;
  /** The places it is planted in, in turn (by default every place, in turn with the others). */
  places?: readonly PlantedPlace[];
}

const prose = (value: string, random: Random) =>
  one(random, [
    `here it is: ${value}`,
    `I found ${value} in the output above.`,
    `Use ${value} for now and rotate it later`,
    `${value}`,
    `the value was '${value}'`,
  ]);

/** The kinds planted, by the names the secretlint and gitleaks rule sets give them. */
export const plantedKinds: readonly Kind[] = [
  {
    kind: "aws-access-key",
    make: (r) => token(j("AK", "IA"), pick(r, `${upper}234567`, 16)),
  },
  {
    kind: "aws-secret-key",
    make: (r) => ({ value: pick(r, base64, 40), secret: [] }),
    line: (v) => `aws_secret_access_key = ${v}`,
  },
  { kind: "github-token", make: (r) => token(j("gh", "p_"), pick(r, alnum, 36)) },
  {
    kind: "github-fine-grained-token",
    make: (r) => token(j("github", "_pat_"), `${pick(r, alnum, 22)}_${pick(r, alnum, 59)}`),
  },
  { kind: "gitlab-token", make: (r) => token(j("gl", "pat-"), pick(r, base64url, 20)) },
  {
    kind: "slack-token",
    make: (r) =>
      token(j("xo", "xb-"), `${pick(r, digits, 12)}-${pick(r, digits, 13)}-${pick(r, alnum, 24)}`),
  },
  {
    kind: "slack-webhook",
    make: (r) =>
      token(
        j("https://hooks.sl", "ack.com/services/"),
        `T${pick(r, upper + digits, 10)}/B${pick(r, upper + digits, 10)}/${pick(r, alnum, 24)}`,
      ),
  },
  {
    kind: "openai-api-key",
    make: (r) => {
      const a = pick(r, base64url, 74);
      const b = pick(r, base64url, 74);
      return { value: j("sk", "-proj-", a, "T3Blbk", "FJ", b), secret: [a, b] };
    },
  },
  {
    kind: "anthropic-api-key",
    make: (r) => token(j("sk-", "ant-api03-"), `${withDashes(r, 93)}AA`),
  },
  { kind: "rsa-private-key", make: (r) => pem(r, j("RSA PRIVATE", " KEY"), 1600) },
  { kind: "ec-private-key", make: (r) => pem(r, j("EC PRIVATE", " KEY"), 160) },
  // PKCS #8 Ed25519: 64 characters of key text.
  { kind: "ed25519-private-key", make: (r) => pem(r, j("PRIVATE", " KEY"), 64) },
  { kind: "openssh-private-key", make: (r) => pem(r, j("OPENSSH PRIVATE", " KEY"), 360) },
  { kind: "encrypted-private-key", make: (r) => pem(r, j("ENCRYPTED PRIVATE", " KEY"), 240) },
  {
    kind: "encrypted-rsa-private-key",
    make: (r) =>
      pem(r, j("RSA PRIVATE", " KEY"), 1200, [
        "Proc-Type: 4,ENCRYPTED",
        `DEK-Info: AES-128-CBC,${pick(r, hex, 32).toUpperCase()}`,
      ]),
  },
  {
    kind: "private-key-json-escaped",
    make: (r) => {
      const made = pem(r, j("PRIVATE", " KEY"), 200);
      return { value: made.value.replaceAll("\n", "\\n"), secret: made.secret };
    },
    line: (v) => `{"type": "service_account", "private_key": "${v}"}`,
  },
  { kind: "gcp-api-key", make: (r) => token(j("AI", "za"), withDashes(r, 35)) },
  {
    kind: "google-oauth-client-secret",
    make: (r) => token(j("GOC", "SPX-"), pick(r, base64url, 28)),
  },
  {
    kind: "azure-storage-key",
    make: (r) => ({ value: `${pick(r, base64, 86)}==`, secret: [] }),
    line: (v, r) =>
      `DefaultEndpointsProtocol=https;AccountName=${pick(r, lower, 10)};${j("Account", "Key=")}${v};EndpointSuffix=core.windows.net`,
  },
  {
    kind: "azure-ad-client-secret",
    make: (r) => token("", `${pick(r, alnum, 3)}${pick(r, digits, 1)}Q~${pick(r, alnum, 34)}`),
  },
  {
    kind: "sendgrid-api-key",
    make: (r) => token(j("S", "G."), `${withDashes(r, 22)}.${withDashes(r, 43)}`),
  },
  { kind: "stripe-secret-key", make: (r) => token(j("sk", "_live_"), pick(r, alnum, 24)) },
  { kind: "npm-token", make: (r) => token(j("np", "m_"), pick(r, alnum, 36)) },
  { kind: "huggingface-token", make: (r) => token(j("h", "f_"), pick(r, upper + lower, 34)) },
  { kind: "twilio-api-key", make: (r) => token(j("S", "K"), pick(r, hex, 32)) },
  { kind: "mailgun-api-key", make: (r) => token(j("ke", "y-"), pick(r, hex, 32)) },
  {
    kind: "digitalocean-token",
    make: (r) => token(j("do", "p_v1_"), pick(r, hex, 64)),
  },
  {
    kind: "telegram-bot-token",
    make: (r) => token(`${pick(r, digits, 9)}:AA`, pick(r, base64url, 33)),
  },
  {
    kind: "pypi-token",
    make: (r) => token(j("py", "pi-AgEIcHlwaS5vcmc"), pick(r, base64url, 70)),
  },
  {
    kind: "age-secret-key",
    make: (r) => token(j("AGE-SECRET", "-KEY-1"), pick(r, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)),
  },
  { kind: "shopify-token", make: (r) => token(j("shp", "at_"), pick(r, hex, 32)) },
  { kind: "doppler-token", make: (r) => token(j("dp", ".pt."), pick(r, alnum, 43)) },
  {
    kind: "postman-api-key",
    make: (r) => token(j("PM", "AK-"), `${pick(r, hex, 24)}-${pick(r, hex, 34)}`),
  },
  { kind: "new-relic-key", make: (r) => token(j("NR", "AK-"), pick(r, upper + digits, 27)) },
  { kind: "square-token", make: (r) => token(j("sq0", "atp-"), pick(r, base64url, 22)) },
  { kind: "linear-api-key", make: (r) => token(j("lin", "_api_"), pick(r, alnum, 40)) },
  {
    kind: "jwt",
    make: (r) => {
      const head = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString("base64url");
      const body = Buffer.from(
        `{"sub":"${pick(r, digits, 10)}","name":"${pick(r, lower, 8)}","iat":${pick(r, digits, 10)}}`,
      ).toString("base64url");
      const signature = pick(r, base64url, 43);
      // The body's first characters are the same in every token (`{"sub":"` encoded): the
      // signature alone is the random part to look for.
      return { value: `${head}.${body}.${signature}`, secret: [signature] };
    },
  },
  {
    kind: "url-password",
    make: (r) => {
      let password = pick(r, passwordCharacters, 14 + Math.floor(r() * 10));
      // At least two of the characters that end simpler URL patterns.
      password = `${password.slice(0, 5)}${one(r, ["!", "$", "%", "&", "*", "@"])}${password.slice(5)}${one(r, ["(", "+", "=", ";", ","])}`;
      const scheme = one(r, ["https", "postgres", "mysql", "mongodb+srv", "redis", "amqp"]);
      const user = one(r, ["admin", "deploy", "app_user", ""]);
      const host = one(r, ["db.internal.example", "10.0.3.7", "cache.example.com:6379"]);
      return { value: `${scheme}://${user}:${password}@${host}/main`, secret: [password] };
    },
  },
  {
    kind: "authorization-bearer",
    make: (r) => ({ value: pick(r, base64url, 40), secret: [] }),
    line: (v) => `curl -H 'Authorization: Bearer ${v}' https://api.example.com/v1/items`,
    places: ["tool-input-authorization", "tool-result-json", "shell-command", "text", "thinking"],
  },
  {
    kind: "generic-password",
    make: (r) => ({ value: pick(r, passwordCharacters, 16), secret: [] }),
    line: (v, r) => `${one(r, ["export DB_PASSWORD", "DATABASE_PASSWORD", "SMTP_PASS"])}=${v}`,
  },
  {
    kind: "generic-api-key",
    make: (r) => ({ value: pick(r, alnum, 32), secret: [] }),
    line: (v, r) => one(r, [`API_KEY=${v}`, `export SERVICE_TOKEN=${v}`, `client_secret: ${v}`]),
  },
];

/** Where a secret stands in a transcript. */
export type PlantedPlace =
  | "text"
  | "thinking"
  | "shell-command"
  | "tool-input-json"
  | "tool-input-authorization"
  | "tool-result"
  | "tool-result-json"
  | "compaction"
  | "subagent"
  | "title"
  | "cwd"
  | "git-branch";

const places: readonly PlantedPlace[] = [
  "text",
  "thinking",
  "shell-command",
  "tool-input-json",
  "tool-input-authorization",
  "tool-result",
  "tool-result-json",
  "compaction",
  "subagent",
  "title",
  "cwd",
  "git-branch",
];

export interface PlantedSecret {
  kind: string;
  place: PlantedPlace;
  /** Random parts that must all be gone after redaction. */
  secret: string[];
}

export interface PlantedCorpus {
  transcripts: Transcript[];
  secrets: PlantedSecret[];
  /** Lines that hold no secret, each once, each a whole line of a tool result. */
  benign: string[];
}

/** Benign lines that look close to secrets. */
function benignLine(random: Random, n: number): string {
  const uuid = () =>
    `${pick(random, hex, 8)}-${pick(random, hex, 4)}-4${pick(random, hex, 3)}-a${pick(random, hex, 3)}-${pick(random, hex, 12)}`;
  const word = () => one(random, ["upload", "parser", "index", "session", "review", "cache"]);
  const lines = [
    () => `commit ${pick(random, hex, 40)}`,
    () => `${pick(random, hex, 7)} ${word()}: fix the ${word()} test (#${n})`,
    () => `${pick(random, hex, 64)}  dist/${word()}-${n}.tar.gz`,
    () => `session ${uuid()} resumed`,
    () => `"id": "${uuid()}",`,
    () =>
      `![screenshot](data:image/png;base64,iVBORw0KGgo${pick(random, base64, 120 + Math.floor(random() * 200))}=)`,
    () => `"integrity": "sha512-${pick(random, base64, 86)}==",`,
    () => `FROM node:20@sha256:${pick(random, hex, 64)}`,
    () =>
      `/home/dev/work/app/node_modules/.pnpm/@scope+${word()}@1.${n % 10}.${n % 7}/node_modules/@scope/${word()}/dist/index.js`,
    () => `https://github.com/example/${word()}/pull/${n} merged by ${pick(random, lower, 6)}`,
    () => `git@github.com:example/${word()}-${n}.git`,
    () => `ssh://git@git.example.com:7999/team/${word()}.git`,
    () => `const password = process.env.DB_PASSWORD_${n};`,
    () => `  token: string; // ${word()} ${n}`,
    () => `api_key=\${API_KEY_${n}}`,
    () => `TOKEN_FILE=/run/secrets/${word()}_${n}`,
    () => `Authorization: Bearer $TOKEN`,
    () => `export NODE_OPTIONS=--max-old-space-size=${4096 + n}`,
    () => `color: #${pick(random, hex, 6)}; background: #${pick(random, hex, 6)};`,
    () => `2026-03-0${1 + (n % 9)}T10:${10 + (n % 50)}:00.000Z INFO ${word()} done in ${n} ms`,
    () => `const ${word()}Handler${n} = create${upper[n % 26]}${word()}Resolver(options);`,
    () => `cache-key: node-modules-${pick(random, hex, 40)}`,
    () => `ETag: "W/${pick(random, hex, 32)}"`,
    () =>
      `Bearer tokens expire after ${(n % 24) + 1} hours; refresh them with the ${word()} endpoint`,
    () => `"version": "1.${n}.0", "gitHead": "${pick(random, hex, 40)}"`,
    () => `${pick(random, alnum, 22)}.json`,
    () => `postgres://localhost:5432/${word()}_${n}`,
    () => `https://example.com/search?q=${word()}&page=${n}`,
    () => `sha256:${pick(random, hex, 64)}`,
    () => `SGVsbG8gd29ybGQ${pick(random, base64, 24)} (base64 of a ${word()} fixture)`,
    () => `golang.org/x/${word()} v0.${n}.0 h1:${pick(random, base64, 43)}=`,
    () => `"checksum": "${pick(random, hex, 40)}",`,
    () => `x-request-id: ${uuid()}`,
    () => `max_tokens: ${1024 + n}, token_type: "Bearer", tokens_used: ${n * 7}`,
    () =>
      `"mappings": "${pick(random, "ACEGIKMOQSUWYace", 60)};${pick(random, "ACEGIKMOgikm", 30)}",`,
    () =>
      `<div class="${word()}_${pick(random, alnum, 5)} css-${pick(random, lower + digits, 7)}">`,
    () => `"resolved": "https://registry.npmjs.org/${word()}/-/${word()}-1.${n}.0.tgz",`,
    () => `sha256:${pick(random, hex, 12)}   ${word()}:latest   ${n} MB`,
    () => `password reset link sent to dev${n}@example.com`,
    () => `git checkout -b fix/${word()}-${n} origin/main`,
    () => `PASS: subagent ${word()} completed (${n} checks)`,
    () => `PASS src/${word()}.test.ts (${n % 40} tests) Passwords: hashed`,
    () => `/home/dev/.cache/${word()}/${pick(random, hex, 2)}/${pick(random, hex, 38)}`,
  ];
  return (one(random, lines) as () => string)();
}

const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 10, 0, n)).toISOString();

/**
 * The corpus for `seed`: `perKind` secrets of each kind, each in the next place in turn, and
 * `benignLines` benign lines; one transcript for each twelve secrets (so each has a title,
 * working directory and branch to plant in).
 */
export function plantedCorpus(
  seed: number,
  options: { perKind?: number; benignLines?: number } = {},
): PlantedCorpus {
  const random = seeded(seed);
  const perKind = options.perKind ?? 7;
  const secrets: PlantedSecret[] = [];
  const transcripts: Transcript[] = [];
  const benign: string[] = [];
  const planted: { kind: Kind; made: Made; line: string; place: PlantedPlace }[] = [];
  let turn = 0;
  for (let round = 0; round < perKind; round += 1)
    for (const kind of plantedKinds) {
      const made = kind.make(random);
      const line = (kind.line ?? prose)(made.value, random);
      let place = (kind.places ?? places)[
        (kind.places === undefined ? turn : round) % (kind.places ?? places).length
      ] as PlantedPlace;
      turn += 1;
      // A title, directory or branch holds a token that names itself, not a value that needs
      // its context (`AccountKey=`), a key of many lines or a URL.
      const bare =
        kind.line === undefined && !made.value.includes("\n") && !made.value.includes("://");
      if (!bare && (place === "title" || place === "cwd" || place === "git-branch"))
        place = "tool-result";
      planted.push({ kind, made, line, place });
    }
  const benignCount = options.benignLines ?? 2_000;
  const benignSet = new Set<string>();
  while (benignSet.size < benignCount) benignSet.add(benignLine(random, benignSet.size));
  for (const line of benignSet) benign.push(line);
  // Each transcript takes at most one secret for its title, directory and branch.
  const groups: (typeof planted)[] = [];
  for (const entry of planted) {
    const meta = entry.place === "title" || entry.place === "cwd" || entry.place === "git-branch";
    let group = groups.find(
      (candidate) =>
        candidate.length < places.length &&
        !(meta && candidate.some((other) => other.place === entry.place)),
    );
    if (group === undefined) {
      group = [];
      groups.push(group);
    }
    group.push(entry);
  }
  const transcriptCount = groups.length;
  const benignPer = Math.ceil(benign.length / transcriptCount);
  for (let t = 0; t < transcriptCount; t += 1) {
    const group = groups[t] as typeof planted;
    const meta: Transcript["meta"] = { id: `planted-${seed}-${t}`, timestamp: at(0) };
    const messages: Message[] = [];
    const subagents: Subagent[] = [];
    let n = 0;
    const message = (role: "user" | "assistant", content: Block[]) => {
      n += 1;
      messages.push({ role, content, timestamp: at(n) });
    };
    for (const { kind, made, line, place } of group) {
      secrets.push({
        kind: kind.kind,
        place,
        secret: made.secret.length > 0 ? made.secret : [made.value],
      });
      const callId = `call-${t}-${n}`;
      switch (place) {
        case "text":
          message("user", [{ type: "text", text: `Why does this fail?\n${line}\nThanks` }]);
          break;
        case "thinking":
          message("assistant", [{ type: "thinking", text: `The config says ${line}. So...` }]);
          break;
        case "shell-command":
          message("assistant", [
            {
              type: "tool_use",
              id: callId,
              tool: { name: "Bash", input: { command: `echo '${line}' >> .env.local` } },
            } as Block,
          ]);
          break;
        case "tool-input-json":
          message("assistant", [
            {
              type: "tool_use",
              id: callId,
              tool: {
                name: "Raw",
                toolName: "http_request",
                input: { url: "https://api.example.com", body: { note: line } },
              },
            } as Block,
          ]);
          break;
        case "tool-input-authorization":
          message("assistant", [
            {
              type: "tool_use",
              id: callId,
              tool: {
                name: "Raw",
                toolName: "fetch",
                input: {
                  url: "https://api.example.com/v1",
                  headers: {
                    Authorization: `Bearer ${kind.kind === "authorization-bearer" ? made.value : "$API_TOKEN"}`,
                    "Content-Type": "application/json",
                  },
                  note: line,
                },
              },
            } as Block,
          ]);
          break;
        case "tool-result":
          message("user", [
            {
              type: "tool_result",
              toolUseId: callId,
              content: `$ cat .env\nNODE_ENV=production\n${line}\nPORT=8080`,
              isError: false,
            },
          ]);
          break;
        case "tool-result-json":
          message("user", [
            {
              type: "tool_result",
              toolUseId: callId,
              // JSON inside a string inside JSON: the quotes are escaped (`\\"Authorization\\": …`).
              content: `response: ${JSON.stringify(
                JSON.stringify({
                  request: {
                    headers: {
                      Authorization: `Bearer ${kind.kind === "authorization-bearer" ? made.value : "$API_TOKEN"}`,
                    },
                  },
                  log: line,
                }),
              )}`,
              isError: false,
            },
          ]);
          break;
        case "compaction":
          message("user", [{ type: "compaction", summary: `Earlier we set ${line}.` }]);
          break;
        case "subagent":
          subagents.push({
            id: `agent-${t}-${n}`,
            messages: [{ role: "user", content: [{ type: "text", text: line }], timestamp: at(n) }],
          });
          break;
        case "title":
          meta.title = `Rotate ${made.value}`;
          break;
        case "cwd":
          meta.cwd = `/home/dev/work/${made.value.replaceAll("/", "_").replaceAll("\n", "")}/app`;
          break;
        case "git-branch":
          meta.gitBranch = `fix/${made.value.replaceAll("\n", "-")}`;
          break;
      }
    }
    const lines = benign.slice(t * benignPer, (t + 1) * benignPer);
    for (let i = 0; i < lines.length; i += 20)
      message("user", [
        {
          type: "tool_result",
          toolUseId: `benign-${t}-${i}`,
          content: lines.slice(i, i + 20).join("\n"),
          isError: false,
        },
      ]);
    transcripts.push({ meta, messages, ...(subagents.length > 0 ? { subagents } : {}) });
  }
  return { transcripts, secrets, benign };
}

/** Every string in a JSON-like value. */
function strings(value: unknown, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value !== null && typeof value === "object")
    for (const item of Object.values(value as Record<string, Json>)) strings(item, out);
}

/** Characters of a secret that count as it surviving: any run this long left in place. */
const window = 10;

export interface PlantedMeasure {
  planted: number;
  /** Secrets any part of which survived (a run of `window` characters of it is still there). */
  survived: PlantedSecret[];
  recall: number;
  benign: number;
  /** Benign lines no longer in the redacted transcripts as they were. */
  changed: string[];
  falsePositiveRate: number;
  /** Per kind and per place: planted and survived. */
  byKind: Record<string, { planted: number; survived: number }>;
  byPlace: Record<string, { planted: number; survived: number }>;
}

/** How many planted secrets survived `redacted` (the corpus's transcripts, redacted, in order). */
export function measurePlanted(
  corpus: PlantedCorpus,
  redacted: readonly Transcript[],
): PlantedMeasure {
  const texts: string[] = [];
  strings(redacted, texts);
  const windows = new Set<string>();
  const lines = new Set<string>();
  for (const text of texts) {
    for (let i = 0; i + window <= text.length; i += 1) windows.add(text.slice(i, i + window));
    for (const line of text.split("\n")) lines.add(line);
  }
  const left = (part: string) => {
    if (part.length < window) return texts.some((text) => text.includes(part));
    for (let i = 0; i + window <= part.length; i += 1)
      if (windows.has(part.slice(i, i + window))) return true;
    return false;
  };
  const survived = corpus.secrets.filter((secret) => secret.secret.some(left));
  const tally = (key: (secret: PlantedSecret) => string) => {
    const out: Record<string, { planted: number; survived: number }> = {};
    for (const secret of corpus.secrets) {
      const entry = out[key(secret)] ?? { planted: 0, survived: 0 };
      out[key(secret)] = entry;
      entry.planted += 1;
      if (survived.includes(secret)) entry.survived += 1;
    }
    return out;
  };
  const changed = corpus.benign.filter((line) => !lines.has(line));
  return {
    planted: corpus.secrets.length,
    survived,
    recall: 1 - survived.length / corpus.secrets.length,
    benign: corpus.benign.length,
    changed,
    falsePositiveRate: changed.length / corpus.benign.length,
    byKind: tally((secret) => secret.kind),
    byPlace: tally((secret) => secret.place),
  };
}
