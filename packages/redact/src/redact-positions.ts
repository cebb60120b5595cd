// Secrets the fixed-format rules miss: OpenAI and AWS keys ending in a
// non-word character (secretlint's patterns end in `\b`), and those found by where they stand: the value of
// a key or variable named like a credential (`api_key`, `DB_PASSWORD`,
// `client_secret`), an Authorization header, and JSON Web Tokens. A value
// is taken only when it looks random (entropy, digits and letters), so
// `token: string` or `password: process.env.X` stay. Not secretlint's rules.
import type { Finding } from "./redact-rules.js";

/** A name that marks its value as a credential. */
const secretName =
  /(?:token|secret|passw(?:or)?d|passphrase|[_.-]pass(?![a-z])|\bpass[_.-]|pwd|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?|session[_-]?key|signing[_-]?key)/i;
/** `PASS` alone is a word (`PASS: 3 tests`); `SMTP_PASS`, `db.pass`, `pass_file` name passwords. */
const passwordName = /(?:passw(?:or)?d|passphrase|[_.-]pass(?![a-z])|\bpass[_.-]|pwd)/i;

/** Whether a key or variable name is one whose value is a credential. */
export function isSecretName(name: string): boolean {
  return secretName.test(name);
}

function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const character of value) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / value.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

const placeholder =
  /^(?:\$|%|<|\{\{|process\.env|env\.|os\.environ|\*+$|x+$|\.\.\.|null$|none$|true$|false$|undefined$|redacted|\[redacted)/i;

/**
 * Whether a value in a secret position looks like a credential: no spaces,
 * not a placeholder or reference, and random-looking. Passwords may be
 * shorter and less random than tokens.
 */
export function looksSecret(value: string, name: string): boolean {
  if (/\s/.test(value) || placeholder.test(value)) return false;
  // A URL or a path is not itself the secret (credentials inside URLs are a rule's business).
  if (value.includes("://") || /^(?:\/|\.\.?\/|~\/)/.test(value)) return false;
  if (passwordName.test(name)) return value.length >= 8 && entropy(value) >= 2.5;
  if (value.length < 16) return false;
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false;
  return entropy(value) >= 3.0;
}

/** An Authorization header in text, in JSON, or in JSON inside a string (`\"Authorization\": \"Bearer …\"`). */
const authorizationHeader =
  /\b(?:proxy-)?authorization\\?["']?\s*[:=]\s*\\?["']?(?:bearer|basic|token|bot|digest|negotiate|apikey)\s+([A-Za-z0-9._~+/=-]{8,})/gi;
/** A Bearer credential without its header's name (`-H "Bearer …"`, a token pasted with its scheme). */
const bearer = /\bBearer\s+([A-Za-z0-9._~+/=-]{16,})/g;
/** The value of an Authorization header alone (a JSON value under an `Authorization` key). */
const authorizationValue =
  /^\s*(?:(?:bearer|basic|token|bot|digest|negotiate|apikey)\s+)?([A-Za-z0-9._~+/=:-]{8,})\s*$/i;
const authorizationName = /^(?:proxy-)?authorization$/i;

/** Whether a key names an Authorization header (its value is a scheme and a credential). */
export function isAuthorizationName(name: string): boolean {
  return authorizationName.test(name);
}

/** The credential of an Authorization header's value, when it is one (not a placeholder). */
export function scanAuthorizationValue(value: string): Finding[] {
  const match = authorizationValue.exec(value);
  const credential = match?.[1];
  if (credential === undefined || placeholder.test(credential)) return [];
  const end = value.trimEnd().length;
  return [{ start: end - credential.length, end, kind: "authorization-header" }];
}
/**
 * OpenAI project, service-account and admin keys whose last character is
 * `-`: secretlint's rule ends its pattern with `\b`, which no `-` before a
 * space or quote satisfies, so such keys (base64url bodies end in `-` one
 * time in 64) slip past it. Same shape, bounded by what cannot continue a key.
 */
const openaiKey =
  /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,200}T3BlbkFJ[A-Za-z0-9_-]{20,200}(?![A-Za-z0-9_-])/g;
/** The same gap in secretlint's AWS secret key rule: a key ending in `/`, `+` or `=` before a space or quote. */
const awsSecretKey =
  /(?:aws)?_?secret_?access_?key["']?\s*(?::|=>|=)\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi;
const jsonWebToken = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
/**
 * `name = value`, `name: value`, `"name": "value"`, also with escaped quotes (JSON in a string).
 * A URL's query `&` ends the value, and so does `=` (`"log":"DB_PASS=…"` is two assignments;
 * a base64 value's padding stays, which says nothing).
 */
const assignment =
  /([A-Za-z_][A-Za-z0-9_.-]{0,80})\\?["']?\s*(?:=|:|=>)\s*\\?["']?(=?[^\s"'`,;&{}()[\]<>\\=]+)/g;
/** A password's value runs on through `(`, `,`, `;`, `&` and the like, to a space or quote. */
const passwordRun = /^[^\s"'`\\]{0,200}/;
/**
 * A line of a dotenv file or a shell assignment, `NAME=value` alone on its line: the value runs
 * to the end of the line (a password may hold `(`, `,`, `;` or `&`, which end `assignment`).
 */
const lineAssignment =
  /^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]{0,80})[ \t]*=[ \t]*(["']?)([^\s"'`]{8,200})\2[ \t]*$/gm;
/** A command-line flag and its value as the next word: `--token abc…`, `--api-key "abc…"`. */
const flag =
  /(?<![\w-])--?([A-Za-z][A-Za-z0-9-]{1,40})\s+["']?([^\s"'`,;&{}()[\]<>-][^\s"'`,;&{}()[\]<>]{7,})/g;

/**
 * The assignments in `text`, each value also tried as a name (`"log":"DB_PASS=…"`: the value of
 * `log` is the name of the next).
 */
function* assignments(text: string): Generator<RegExpExecArray> {
  const pattern = new RegExp(assignment.source, "g");
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    yield match;
    // Only a value that could itself name a secret is read again as a name.
    const value = match[2] as string;
    if (secretName.test(value)) pattern.lastIndex = match.index + match[0].length - value.length;
  }
}

/** Findings by position in one string: headers, JWTs and credential-named assignments. */
export function scanPositions(text: string): Finding[] {
  const found: Finding[] = [];
  if (/authorization/i.test(text))
    for (const match of text.matchAll(authorizationHeader)) {
      const value = match[1] as string;
      const end = (match.index as number) + match[0].length;
      found.push({ start: end - value.length, end, kind: "authorization-header" });
    }
  if (text.includes("Bearer"))
    for (const match of text.matchAll(bearer)) {
      const value = match[1] as string;
      if (!looksSecret(value, "token")) continue;
      const end = (match.index as number) + match[0].length;
      found.push({ start: end - value.length, end, kind: "authorization-header" });
    }
  if (text.includes("T3BlbkFJ"))
    for (const match of text.matchAll(openaiKey)) {
      const start = match.index as number;
      found.push({ start, end: start + match[0].length, kind: "openai-api-key" });
    }
  if (/access_?key/i.test(text))
    for (const match of text.matchAll(awsSecretKey)) {
      const value = match[1] as string;
      const end = (match.index as number) + match[0].length;
      found.push({ start: end - value.length, end, kind: "aws-secret-key" });
    }
  if (text.includes("eyJ"))
    for (const match of text.matchAll(jsonWebToken)) {
      const start = match.index as number;
      found.push({ start, end: start + match[0].length, kind: "jwt" });
    }
  if (secretName.test(text))
    for (const match of assignments(text)) {
      const name = match[1] as string;
      const value = match[2] as string;
      if (!isSecretName(name)) continue;
      const start = (match.index as number) + match[0].length - value.length;
      const whole = passwordName.test(name)
        ? (passwordRun.exec(text.slice(start, start + 200)) as RegExpExecArray)[0]
        : value;
      if (whole.length < 8 || !looksSecret(whole, name)) continue;
      found.push({ start, end: start + whole.length, kind: "secret-value" });
    }
  if (text.includes("="))
    for (const match of text.matchAll(lineAssignment)) {
      const name = match[1] as string;
      const value = match[3] as string;
      if (!isSecretName(name) || !looksSecret(value, name)) continue;
      const start = (match.index as number) + match[0].lastIndexOf(value);
      found.push({ start, end: start + value.length, kind: "secret-value" });
    }
  if (text.includes("-"))
    for (const match of text.matchAll(flag)) {
      const name = match[1] as string;
      const value = match[2] as string;
      if (!isSecretName(name) || !looksSecret(value, name)) continue;
      const end = (match.index as number) + match[0].length;
      found.push({ start: end - value.length, end, kind: "secret-value" });
    }
  return found;
}
