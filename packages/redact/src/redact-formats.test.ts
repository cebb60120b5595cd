// The fixed formats of gitleaks' kinds and the position checks added for
// issue 33, one line each: what must go (and only the secret part of it),
// and look-alikes that must stay. The fakes are built from pieces.
import { describe, expect, it } from "vitest";
import { scanFormats } from "./redact-formats.js";
import { scanAuthorizationValue, scanPositions } from "./redact-positions.js";
import { applyFindings, mergeFindings } from "./redact-transcript.js";

const redact = (text: string) =>
  applyFindings(text, mergeFindings([...scanFormats(text), ...scanPositions(text)]));

const google = ["AI", "za"].join("") + "Sy-3bX_9kQwErTyUiOpAsDfGhJkLzXcVbNm";
const sendgrid = `${["S", "G."].join("")}aB-cD_eF1gH2iJ3kL4mN5o.pQ-rS_tU1vW2xY3zA4bC5dE6fG7hI8jK9lM0nO1pQ2r`;
const ed25519 = [
  ["-----BEGIN PRIV", "ATE KEY-----"].join(""),
  "MC4CAQAwBQYDK2VwBCIEIJ3bX9kQwErTyUiOpAsDfGhJkLzXcVbNmQwErTyUiOp",
  ["-----END PRIV", "ATE KEY-----"].join(""),
].join("\n");

describe("fixed formats (gitleaks' kinds)", () => {
  it.each([
    ["a Google API key", `key=${google}&q=x`, `key=[redacted: gcp-api-key]&q=x`],
    ["a SendGrid key with - and _", `SENDGRID=${sendgrid}`, "SENDGRID=[redacted: sendgrid]"],
    [
      "an Ed25519 key, whole",
      `before\n${ed25519}\nafter`,
      "before\n[redacted: private-key]\nafter",
    ],
    [
      "an Azure storage key, the key only",
      `AccountName=x;${["Account", "Key="].join("")}${"a1B2".repeat(21)}ab==;EndpointSuffix=core.windows.net`,
      "AccountName=x;AccountKey=[redacted: azure-storage-key];EndpointSuffix=core.windows.net",
    ],
    [
      "a URL password with special characters, the password only",
      "postgres://app:p@ss!w0rd$%^&*(x)@db.internal:5432/main",
      "postgres://app:[redacted: basic-auth-url]@db.internal:5432/main",
    ],
  ])("%s", (_what, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it.each([
    `postgres://user:${"$"}{DB_PASSWORD}@localhost/app`,
    "https://user:password@example.com/",
    "git@github.com:example/repo.git",
    "ssh://git@git.example.com:7999/team/repo.git",
    "https://github.com/example/repo/pull/12 merged by alice",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "commit 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
    "-----BEGIN PUBLIC KEY-----",
  ])("leaves %s", (text) => {
    expect(redact(text)).toBe(text);
  });
});

describe("positions added for issue 33", () => {
  it("takes an Authorization header's credential in JSON inside a string (escaped quotes)", () => {
    const token = "Zk9xR2c1QjhMd0ptTjRvVXpZcTNhV2VTdFg";
    expect(redact(`{\\"Authorization\\": \\"Bearer ${token}\\"}`)).toBe(
      `{\\"Authorization\\": \\"Bearer [redacted: authorization-header]\\"}`,
    );
  });

  it("takes an Authorization value's credential, and leaves a reference", () => {
    const value = "Bearer Zk9xR2c1QjhMd0ptTjRvVXpZcTNhV2VTdFg";
    expect(applyFindings(value, scanAuthorizationValue(value))).toBe(
      "Bearer [redacted: authorization-header]",
    );
    expect(scanAuthorizationValue("Bearer $API_TOKEN")).toEqual([]);
    expect(scanAuthorizationValue(`Bearer ${"$"}{{ secrets.TOKEN }}`)).toEqual([]);
  });

  it("runs a password to the end of its value, through ( , ; &", () => {
    expect(redact("export DB_PASSWORD=ab(cd,ef;gh&ij")).toBe(
      "export DB_PASSWORD=[redacted: secret-value]",
    );
    expect(redact('{"log":"SMTP_PASS=Xy7-q(2)Lm9!zz"}')).toBe(
      '{"log":"SMTP_PASS=[redacted: secret-value]"}',
    );
    // A test runner's PASS is a word, not a password's name.
    expect(redact("PASS: subagent A completed")).toBe("PASS: subagent A completed");
    expect(redact("const password = process.env.DB_PASSWORD;")).toBe(
      "const password = process.env.DB_PASSWORD;",
    );
  });
});
