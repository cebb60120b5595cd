// Fixed-format credentials secretlint's recommended preset misses or finds
// only in part, by the kinds gitleaks' default rule set names (its rule ids,
// as of gitleaks/gitleaks config/gitleaks.toml at 009e025a; the patterns here
// are ours, written from each vendor's documented key shape): private keys of
// every PEM kind (EC, Ed25519 and other PKCS #8, encrypted, with headers, cut
// short, or with JSON-escaped line breaks), Google API keys, Azure storage
// account keys and client secrets, SendGrid keys with `-` or `_`, URL
// passwords of any characters, and the other prefixed tokens below.
// See docs/decisions/0013-gitleaks-kinds-beside-secretlint.md.
import type { Finding } from "./redact-rules.js";

interface Format {
  kind: string;
  /** A cheap test before the pattern runs (most text holds none of these). */
  hint: string | RegExp;
  pattern: RegExp;
  /** The capture group that is the secret (0, the whole match, by default). */
  group?: number;
  /** Whether a match is a secret (a placeholder is not). */
  accept?: (value: string) => boolean;
}

/** What cannot continue a token: a token ends where none of these follows. */
const tokenEnd = "(?![A-Za-z0-9_-])";
const tokenStart = "(?<![A-Za-z0-9_-])";

/** A URL password that is a reference or a mask, not a secret. */
const placeholderPassword =
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\{\{[^}]*\}\}|<[^>]*>|%[A-Za-z_]+%|\*+|x+|\.\.\.|password|pass|secret|\[redacted[^\]]*\])$/i;

const formats: readonly Format[] = [
  {
    // From BEGIN to its END (any kind: RSA, EC, OPENSSH, ENCRYPTED, PGP … BLOCK, PKCS #8 of
    // any length), or, cut short, the key text that follows BEGIN.
    kind: "private-key",
    hint: "PRIVATE KEY",
    pattern:
      /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,20000}?-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\:,.-]{0,20000})/g,
  },
  {
    kind: "gcp-api-key",
    hint: "AIza",
    pattern: new RegExp(`${tokenStart}AIza[A-Za-z0-9_-]{35}${tokenEnd}`, "g"),
  },
  {
    kind: "google-oauth-client-secret",
    hint: "GOCSPX-",
    pattern: new RegExp(`${tokenStart}GOCSPX-[A-Za-z0-9_-]{28}${tokenEnd}`, "g"),
  },
  {
    // A storage connection string's key, an Event Hubs / Service Bus shared access key.
    kind: "azure-storage-key",
    hint: /(?:AccountKey|SharedAccessKey)\s*=/i,
    pattern: /\b(?:AccountKey|SharedAccessKey)\s*=\s*([A-Za-z0-9+/]{20,120}={0,2})/gi,
    group: 1,
  },
  {
    // A shared access signature's signature in a URL or connection string.
    kind: "azure-sas-signature",
    hint: "sig=",
    pattern: /[?&;]sig=([A-Za-z0-9%+/]{20,200}(?:%3D|=){0,2})/g,
    group: 1,
  },
  {
    kind: "azure-ad-client-secret",
    hint: "Q~",
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~-])/g,
  },
  {
    // SendGrid's base64url halves may hold `-` and `_` anywhere (secretlint's rule allows one).
    kind: "sendgrid",
    hint: "SG.",
    pattern: new RegExp(`${tokenStart}SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}${tokenEnd}`, "g"),
  },
  {
    // `scheme://user:password@host`, the password any characters but whitespace, quotes,
    // angle brackets and what ends a URL's authority (`/`, `?`, `#`), up to the last `@`.
    kind: "basic-auth-url",
    hint: "://",
    pattern:
      /\b[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:/?#@"'`<>]{0,128}:([^\s"'`<>/?#]{1,256})@(?=[A-Za-z0-9-]|\[[0-9A-Fa-f:.]+\])/g,
    group: 1,
    accept: (value) => !placeholderPassword.test(value),
  },
  {
    kind: "github-token",
    hint: "github_pat_",
    pattern: new RegExp(`${tokenStart}github_pat_[A-Za-z0-9_]{70,100}${tokenEnd}`, "g"),
  },
  {
    kind: "gitlab",
    hint: "glpat-",
    pattern: new RegExp(`${tokenStart}glpat-[A-Za-z0-9_-]{20,64}${tokenEnd}`, "g"),
  },
  {
    kind: "twilio",
    hint: "SK",
    pattern: /(?<![A-Za-z0-9_-])SK[0-9a-f]{32}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "mailgun",
    hint: "key-",
    pattern: /(?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "mailchimp",
    hint: "-us",
    pattern: /(?<![A-Za-z0-9_-])[0-9a-f]{32}-us[0-9]{1,2}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "digitalocean",
    hint: "_v1_",
    pattern: /(?<![A-Za-z0-9_-])do[por]_v1_[0-9a-f]{64}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "telegram-bot-token",
    hint: ":AA",
    pattern: /(?<![A-Za-z0-9_:-])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "pypi",
    hint: "pypi-",
    pattern: new RegExp(`${tokenStart}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1000}${tokenEnd}`, "g"),
  },
  {
    kind: "age-secret-key",
    hint: "AGE-SECRET-KEY-1",
    pattern: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/g,
  },
  {
    kind: "postman",
    hint: "PMAK-",
    pattern: new RegExp(`${tokenStart}PMAK-[0-9a-f]{24}-[0-9a-f]{34}${tokenEnd}`, "gi"),
  },
  {
    kind: "new-relic",
    hint: "NRAK-",
    pattern: new RegExp(`${tokenStart}NRAK-[A-Z0-9]{27}${tokenEnd}`, "g"),
  },
  {
    kind: "doppler",
    hint: "dp.pt.",
    pattern: new RegExp(`${tokenStart}dp\\.pt\\.[A-Za-z0-9]{43}${tokenEnd}`, "g"),
  },
  {
    kind: "sentry",
    hint: "sntry",
    pattern: new RegExp(`${tokenStart}sntry[us]_[A-Za-z0-9_=+/.-]{40,200}${tokenEnd}`, "g"),
  },
  {
    kind: "square",
    hint: /sq0(?:atp|csp)-|EAAA/,
    pattern: new RegExp(
      `${tokenStart}(?:sq0atp-[A-Za-z0-9_-]{22}|sq0csp-[A-Za-z0-9_-]{43}|EAAA[A-Za-z0-9_-]{60})${tokenEnd}`,
      "g",
    ),
  },
  {
    kind: "heroku",
    hint: "HRKU-",
    pattern: new RegExp(`${tokenStart}HRKU-AA[A-Za-z0-9_-]{58}${tokenEnd}`, "g"),
  },
  {
    kind: "shopify",
    hint: "shp",
    pattern: /(?<![A-Za-z0-9_-])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "stripe",
    hint: "_live_",
    pattern: /(?<![A-Za-z0-9_-])(?:sk|rk)_live_[A-Za-z0-9]{20,247}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "slack-token",
    hint: "xox",
    pattern: /(?<![A-Za-z0-9_-])xox[abposer]-[A-Za-z0-9-]{10,250}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "npm",
    hint: "npm_",
    pattern: new RegExp(`${tokenStart}npm_[A-Za-z0-9]{36}${tokenEnd}`, "g"),
  },
  {
    kind: "huggingface",
    hint: "hf_",
    pattern: /(?<![A-Za-z0-9_-])hf_[A-Za-z]{34}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "anthropic-api-key",
    hint: "sk-ant-",
    pattern: new RegExp(
      `${tokenStart}sk-ant-(?:api|admin)0\\d-[A-Za-z0-9_-]{80,120}${tokenEnd}`,
      "g",
    ),
  },
];

/** Findings of the fixed formats above in one string. */
export function scanFormats(text: string): Finding[] {
  const found: Finding[] = [];
  for (const format of formats) {
    if (typeof format.hint === "string" ? !text.includes(format.hint) : !format.hint.test(text))
      continue;
    for (const match of text.matchAll(format.pattern)) {
      const value = match[format.group ?? 0];
      if (value === undefined || value === "") continue;
      if (format.accept !== undefined && !format.accept(value)) continue;
      const at = match.index as number;
      const start = format.group === undefined ? at : at + match[0].lastIndexOf(value);
      found.push({ start, end: start + value.length, kind: format.kind });
    }
  }
  return found;
}

/** The gitleaks kinds scanFormats knows. */
export const formatKinds: readonly string[] = [...new Set(formats.map((format) => format.kind))];
