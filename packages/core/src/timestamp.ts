// The one reader of harness times: epoch milliseconds or RFC 3339 / ISO 8601
// strings to a Common timestamp (the form Date#toISOString prints). A
// date-time without a zone is read as UTC, never as the machine's local
// time, so the same file converts to the same transcript everywhere.
import type { Json } from "./json.js";

/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the years ISO strings print in four digits. */
const firstTime = -62_167_219_200_000;
const lastTime = 253_402_300_799_999;

/** The value of `count` decimal digits at `start`, or -1 when one is not a digit. */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index += 1) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `text` is exactly what toISOString prints for some time:
 * `YYYY-MM-DDTHH:mm:ss.sssZ` with every field in range (a real day of that
 * month, hours 00–23). Reading such a string gives it back unchanged, so
 * readers skip the parse and print for it.
 */
export function isCanonicalTimestamp(text: string): boolean {
  if (
    text.length !== 24 ||
    text[4] !== "-" ||
    text[7] !== "-" ||
    text[10] !== "T" ||
    text[13] !== ":" ||
    text[16] !== ":" ||
    text[19] !== "." ||
    text[23] !== "Z"
  )
    return false;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 0 || digitsAt(text, 20, 3) < 0 || month < 1 || month > 12 || day < 1) return false;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && leap ? 29 : (monthDays[month - 1] as number));
}

/** A date-time with a time of day but no `Z` or `±hh:mm` zone. */
const zoneless = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** Epoch milliseconds of a harness time, or NaN. */
export function timestampMillis(value: Json | undefined): number {
  if (typeof value === "number") return Number.isFinite(value) ? value : Number.NaN;
  if (typeof value !== "string") return Number.NaN;
  const text = value.trim();
  return Date.parse(zoneless.test(text) ? `${text.replace(" ", "T")}Z` : text);
}

/** A Common timestamp from epoch ms or a date-time string, when it is a representable time. */
export function readTimestamp(value: Json | undefined): string | undefined {
  if (typeof value === "string" && isCanonicalTimestamp(value)) return value;
  const ms = timestampMillis(value);
  if (!(ms >= firstTime && ms <= lastTime)) return undefined;
  return new Date(ms).toISOString();
}
