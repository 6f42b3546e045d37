// A port of python-slugify 8.0.4 (with text-unidecode 1.3) keeping Python's semantics: str.lower,
// unicodedata normalization, Python `re` classes, and re.sub that gives up whole when a callback raises.
import { NAME2CODEPOINT } from "./html_entities.mjs";
import { TABLE } from "./unidecode_table.mjs";

const CHAR_ENTITY = new RegExp(`&(${[...NAME2CODEPOINT.keys()].join("|")});`, "g");
const DECIMAL = /&#(\p{Nd}+);/gu;
const HEX = /&#x([\p{Nd}a-fA-F]+);/gu;
const QUOTES = /'+/g;
const DISALLOWED = /[^-a-zA-Z0-9]+/g;
const DISALLOWED_UNICODE = /[^\p{L}\p{N}]+/gu; // Python [\W_]+ : not alphanumeric
const DUPLICATE_DASH = /-{2,}/g;
const NUMBERS = /(?<=\p{Nd}),(?=\p{Nd})/gu;

export function unidecode(text) {
  let result = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (cp === 0) result += "\x00";
    else if (cp - 1 < TABLE.length) result += TABLE[cp - 1];
    // beyond the BMP: Python's IndexError is swallowed and the character dropped
  }
  return result;
}

function digitValue(ch) {
  let cp = ch.codePointAt(0);
  let offset = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(cp - 1)) && offset < 64) {
    cp -= 1;
    offset += 1;
  }
  return offset % 10;
}

function parseDigits(digits, base) {
  let value = 0n;
  for (const ch of digits) {
    const d = /\p{Nd}/u.test(ch) ? digitValue(ch) : Number.parseInt(ch, 16);
    value = value * BigInt(base) + BigInt(d);
  }
  return value;
}

function pyChr(value) {
  // Python chr(): any code point up to 0x10FFFF, lone surrogates included.
  if (value > 0x10ffffn) return null;
  const cp = Number(value);
  return cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
}

function subAllOrNothing(text, regex, base) {
  // Python: try: re.sub(pattern, lambda m: chr(int(m.group(1), base)), text) except Exception: pass
  const replaced = [];
  for (const m of text.matchAll(regex)) {
    const ch = pyChr(parseDigits(m[1], base));
    if (ch === null) return text;
    replaced.push(ch);
  }
  let i = 0;
  return text.replace(regex, () => replaced[i++]);
}

export function smartTruncate(string, maxLength = 0, wordBoundary = false, separator = " ", saveOrder = false) {
  string = stripChars(string, separator);
  const len = (s) => Array.from(s).length;
  const head = (s, n) => Array.from(s).slice(0, n).join("");
  if (!maxLength) return string;
  if (len(string) < maxLength) return string;
  if (!wordBoundary) return stripChars(head(string, maxLength), separator);
  if (!string.includes(separator)) return head(string, maxLength);
  let truncated = "";
  for (const word of string.split(separator)) {
    if (!word) continue;
    const nextLen = len(truncated) + len(word);
    if (nextLen < maxLength) {
      truncated += `${word}${separator}`;
    } else if (nextLen === maxLength) {
      truncated += word;
      break;
    } else if (saveOrder) {
      break;
    }
  }
  if (!truncated) truncated = head(string, maxLength);
  return stripChars(truncated, separator);
}

export function pyReplace(text, old, neu) {
  // Python str.replace: literal, every occurrence; an empty `old` inserts between code points and at both ends.
  if (old === "") return neu + Array.from(text).join(neu) + (text ? neu : "");
  return text.split(old).join(neu);
}

export function stripChars(text, chars) {
  // Python str.strip(chars): remove any of these characters from both ends.
  const set = new Set(Array.from(chars));
  const a = Array.from(text);
  let start = 0;
  let end = a.length;
  while (start < end && set.has(a[start])) start += 1;
  while (end > start && set.has(a[end - 1])) end -= 1;
  return a.slice(start, end).join("");
}

export function slugify(text, options = {}) {
  const {
    entities = true, decimal = true, hexadecimal = true, maxLength = 0, wordBoundary = false,
    separator = "-", saveOrder = false, stopwords = [], regexPattern = null, lowercase = true,
    replacements = [], allowUnicode = false,
  } = options;
  for (const [old, neu] of replacements) text = pyReplace(text, old, neu);
  text = text.replace(QUOTES, "-");
  text = allowUnicode ? text.normalize("NFKC") : unidecode(text.normalize("NFKD"));
  if (entities) text = text.replace(CHAR_ENTITY, (_m, name) => String.fromCodePoint(NAME2CODEPOINT.get(name)));
  if (decimal) text = subAllOrNothing(text, DECIMAL, 10);
  if (hexadecimal) text = subAllOrNothing(text, HEX, 16);
  text = text.normalize(allowUnicode ? "NFKC" : "NFKD");
  if (lowercase) text = text.toLowerCase();
  text = text.replace(QUOTES, "");
  text = text.replace(NUMBERS, "");
  const pattern = regexPattern ?? (allowUnicode ? DISALLOWED_UNICODE : DISALLOWED);
  text = text.replace(pattern, "-");
  text = stripChars(text.replace(DUPLICATE_DASH, "-"), "-");
  if (stopwords.length) {
    const stop = lowercase ? stopwords.map((s) => s.toLowerCase()) : stopwords;
    text = text.split("-").filter((w) => !stop.includes(w)).join("-");
  }
  for (const [old, neu] of replacements) text = pyReplace(text, old, neu);
  if (maxLength > 0) text = smartTruncate(text, maxLength, wordBoundary, "-", saveOrder);
  if (separator !== "-") text = pyReplace(text, "-", separator);
  return text;
}
