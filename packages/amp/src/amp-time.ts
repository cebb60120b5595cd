// Amp's times (epoch milliseconds, RFC 3339 strings) as Common timestamps
// (Date#toISOString form). Its own module so the fast path for strings that
// are already in that form can be tested against the plain conversion.
import type { Json } from "@txcript/core";

/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the years ISO strings print in four digits. */
const firstIsoTime = -62_167_219_200_000;
const lastIsoTime = 253_402_300_799_999;

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
 * month, hours 00–23). ECMA-262 fixes Date.parse of such a string to that
 * very time, so converting it would give the text back unchanged.
 */
export function isCanonicalIsoTime(text: string): boolean {
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

/** A Common timestamp from epoch ms or an RFC 3339 string, when it is a representable time. */
export function isoTime(value: Json | undefined): string | undefined {
  // Amp writes usage times in exactly this form: skip the parse and print.
  if (typeof value === "string" && isCanonicalIsoTime(value)) return value;
  const ms =
    typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  const time = date.getTime();
  // Outside these bounds toISOString prints a six-digit year (or throws).
  if (!(time >= firstIsoTime && time <= lastIsoTime)) return undefined;
  return date.toISOString();
}
