// A port of Python's `inflection` 0.5.1 with Python `re` semantics kept: `$` also matches before one
// trailing "\n", `\w`/`\d` are Unicode-aware, and every re.sub replaces all matches.

const END = "(?=\\n?$)"; // Python's `$` without MULTILINE
const W = "[\\p{L}\\p{N}_]"; // Python's Unicode `\w`
const NOT_W = "[^\\p{L}\\p{N}_]";

function py(pattern) {
  // Translate the small Python regex dialect used here: (?i) prefix, `$`, `\d`.
  let flags = "gu";
  let body = pattern;
  if (body.startsWith("(?i)")) {
    flags += "i";
    body = body.slice(4);
  }
  body = body.replaceAll("\\d", "\\p{Nd}").replace(/\$$/, END);
  return new RegExp(body, flags);
}

function rule(pattern, replacement) {
  return [py(pattern), replacement.replace(/\\(\d)/g, "$$$1")];
}

const PLURALS = [
  ["(?i)(quiz)$", "\\1zes"], ["(?i)^(oxen)$", "\\1"], ["(?i)^(ox)$", "\\1en"],
  ["(?i)(m|l)ice$", "\\1ice"], ["(?i)(m|l)ouse$", "\\1ice"], ["(?i)(passer)s?by$", "\\1sby"],
  ["(?i)(matr|vert|ind)(?:ix|ex)$", "\\1ices"], ["(?i)(x|ch|ss|sh)$", "\\1es"],
  ["(?i)([^aeiouy]|qu)y$", "\\1ies"], ["(?i)(hive)$", "\\1s"], ["(?i)([lr])f$", "\\1ves"],
  ["(?i)([^f])fe$", "\\1ves"], ["(?i)sis$", "ses"], ["(?i)([ti])a$", "\\1a"], ["(?i)([ti])um$", "\\1a"],
  ["(?i)(buffal|potat|tomat)o$", "\\1oes"], ["(?i)(bu)s$", "\\1ses"], ["(?i)(alias|status)$", "\\1es"],
  ["(?i)(octop|vir)i$", "\\1i"], ["(?i)(octop|vir)us$", "\\1i"], ["(?i)^(ax|test)is$", "\\1es"],
  ["(?i)s$", "s"], ["$", "s"],
].map(([p, r]) => rule(p, r));

const SINGULARS = [
  ["(?i)(database)s$", "\\1"], ["(?i)(quiz)zes$", "\\1"], ["(?i)(matr)ices$", "\\1ix"],
  ["(?i)(vert|ind)ices$", "\\1ex"], ["(?i)(passer)sby$", "\\1by"], ["(?i)^(ox)en", "\\1"],
  ["(?i)(alias|status)(es)?$", "\\1"], ["(?i)(octop|vir)(us|i)$", "\\1us"], ["(?i)^(a)x[ie]s$", "\\1xis"],
  ["(?i)(cris|test)(is|es)$", "\\1is"], ["(?i)(shoe)s$", "\\1"], ["(?i)(o)es$", "\\1"],
  ["(?i)(bus)(es)?$", "\\1"], ["(?i)(m|l)ice$", "\\1ouse"], ["(?i)(x|ch|ss|sh)es$", "\\1"],
  ["(?i)(m)ovies$", "\\1ovie"], ["(?i)(s)eries$", "\\1eries"], ["(?i)([^aeiouy]|qu)ies$", "\\1y"],
  ["(?i)([lr])ves$", "\\1f"], ["(?i)(tive)s$", "\\1"], ["(?i)(hive)s$", "\\1"], ["(?i)([^f])ves$", "\\1fe"],
  ["(?i)(t)he(sis|ses)$", "\\1hesis"], ["(?i)(s)ynop(sis|ses)$", "\\1ynopsis"],
  ["(?i)(p)rogno(sis|ses)$", "\\1rognosis"], ["(?i)(p)arenthe(sis|ses)$", "\\1arenthesis"],
  ["(?i)(d)iagno(sis|ses)$", "\\1iagnosis"], ["(?i)(b)a(sis|ses)$", "\\1asis"],
  ["(?i)(a)naly(sis|ses)$", "\\1nalysis"], ["(?i)([ti])a$", "\\1um"], ["(?i)(n)ews$", "\\1ews"],
  ["(?i)(ss)$", "\\1"], ["(?i)s$", ""],
].map(([p, r]) => rule(p, r));

// Python iterates this set in hash order, but at most one entry can match a word's end, so order is moot.
const UNCOUNTABLES = ["equipment", "fish", "information", "jeans", "money", "rice", "series", "sheep", "species"];

function irregular(singular, plural) {
  const ci = (s) => [...s].map((ch) => `[${ch}${ch.toUpperCase()}]`).join("");
  const s0 = singular[0];
  const p0 = plural[0];
  if (s0.toUpperCase() === p0.toUpperCase()) {
    PLURALS.unshift(rule(`(?i)(${s0})${singular.slice(1)}$`, `\\1${plural.slice(1)}`));
    PLURALS.unshift(rule(`(?i)(${p0})${plural.slice(1)}$`, `\\1${plural.slice(1)}`));
    SINGULARS.unshift(rule(`(?i)(${p0})${plural.slice(1)}$`, `\\1${singular.slice(1)}`));
  } else {
    PLURALS.unshift(rule(`${s0.toUpperCase()}${ci(singular.slice(1))}$`, p0.toUpperCase() + plural.slice(1)));
    PLURALS.unshift(rule(`${s0.toLowerCase()}${ci(singular.slice(1))}$`, p0.toLowerCase() + plural.slice(1)));
    PLURALS.unshift(rule(`${p0.toUpperCase()}${ci(plural.slice(1))}$`, p0.toUpperCase() + plural.slice(1)));
    PLURALS.unshift(rule(`${p0.toLowerCase()}${ci(plural.slice(1))}$`, p0.toLowerCase() + plural.slice(1)));
    SINGULARS.unshift(rule(`${p0.toUpperCase()}${ci(plural.slice(1))}$`, s0.toUpperCase() + singular.slice(1)));
    SINGULARS.unshift(rule(`${p0.toLowerCase()}${ci(plural.slice(1))}$`, s0.toLowerCase() + singular.slice(1)));
  }
}

for (const [s, p] of [
  ["person", "people"], ["man", "men"], ["human", "humans"], ["child", "children"],
  ["sex", "sexes"], ["move", "moves"], ["cow", "kine"], ["zombie", "zombies"],
]) {
  irregular(s, p);
}

function search(regex, text) {
  regex.lastIndex = 0;
  return regex.test(text);
}

function applyRules(rules, word) {
  for (const [regex, replacement] of rules) {
    if (search(regex, word)) return word.replace(regex, replacement);
  }
  return word;
}

export function pluralize(word) {
  if (!word || UNCOUNTABLES.includes(word.toLowerCase())) return word;
  return applyRules(PLURALS, word);
}

export function singularize(word) {
  for (const u of UNCOUNTABLES) {
    // Python: re.search(r'(?i)\b(u)\Z', word): a word boundary before u, u at the very end.
    if (new RegExp(`(?:^|(?<=${NOT_W}))${u}$`, "iu").test(word)) return word;
  }
  return applyRules(SINGULARS, word);
}

export function camelize(string, uppercaseFirstLetter = true) {
  if (uppercaseFirstLetter) return string.replace(/(?:^|_)([^\n])/gu, (_m, ch) => ch.toUpperCase());
  const chars = Array.from(string);
  if (chars.length === 0) throw new RangeError("string index out of range");
  return chars[0].toLowerCase() + Array.from(camelize(string)).slice(1).join("");
}

export function dasherize(word) {
  return word.replaceAll("_", "-");
}

const TITLE_SPECIAL = new Map([
  ["ß", "Ss"], ["ǆ", "ǅ"], ["ǅ", "ǅ"], ["Ǆ", "ǅ"], ["ǉ", "ǈ"], ["ǈ", "ǈ"], ["Ǉ", "ǈ"],
  ["ǌ", "ǋ"], ["ǋ", "ǋ"], ["Ǌ", "ǋ"], ["ǳ", "ǲ"], ["ǲ", "ǲ"], ["Ǳ", "ǲ"],
]);

export function titleChar(ch) {
  if (TITLE_SPECIAL.has(ch)) return TITLE_SPECIAL.get(ch);
  const upper = ch.toUpperCase();
  const chars = Array.from(upper);
  return chars.length > 1 ? chars[0] + chars.slice(1).join("").toLowerCase() : upper;
}

const CASED = /\p{Cased}/u;
const IGNORABLE = /\p{Case_Ignorable}/u;

function lowerAt(chars, i) {
  // Python's lower of one character in context: a capital sigma is final (ς) after a cased letter and not
  // before one, case-ignorable characters skipped both ways.
  if (chars[i] !== "Σ") return chars[i].toLowerCase();
  let j = i - 1;
  while (j >= 0 && IGNORABLE.test(chars[j])) j -= 1;
  let final = j >= 0 && CASED.test(chars[j]);
  if (final) {
    let k = i + 1;
    while (k < chars.length && IGNORABLE.test(chars[k])) k += 1;
    final = k === chars.length || !CASED.test(chars[k]);
  }
  return final ? "ς" : "σ";
}

export function pyCapitalize(text) {
  const chars = Array.from(text);
  if (chars.length === 0) return "";
  return titleChar(chars[0]) + chars.slice(1).map((_ch, i) => lowerAt(chars, i + 1)).join("");
}

export function pyTitle(text) {
  const chars = Array.from(text);
  let previousCased = false;
  let result = "";
  chars.forEach((ch, i) => {
    result += previousCased ? lowerAt(chars, i) : titleChar(ch);
    previousCased = CASED.test(ch);
  });
  return result;
}

export function humanize(word) {
  let w = word.replace(new RegExp(`_id${END}`, "g"), "");
  w = w.replaceAll("_", " ");
  // Python: (?i)[a-z\d]* lowered; under IGNORECASE [a-z] also takes the Kelvin sign and dotted capital I.
  w = w.replace(/[A-Z\u212a\u0130]/g, (ch) => ch.toLowerCase());
  return w.replace(new RegExp(`^${W}`, "u"), (ch) => ch.toUpperCase());
}

export function ordinal(number) {
  const n = number < 0n ? -number : number;
  if ([11n, 12n, 13n].includes(n % 100n)) return "th";
  return { 1: "st", 2: "nd", 3: "rd" }[Number(n % 10n)] ?? "th";
}

export function ordinalize(number) {
  return `${number}${ordinal(number)}`;
}

export function transliterate(string) {
  return string.normalize("NFKD").replace(/[^\x00-\x7f]/gu, "");
}

function pyEscape(text) {
  // re.escape: a backslash before every character that is special in a pattern; as a JS pattern the same
  // structure is kept, with escapes JS accepts in unicode mode.
  return Array.from(text)
    .map((ch) => {
      if ("()[]{}?*+-|^$\\.&~#".includes(ch)) return ch === "-" ? "\\x2d" : ch === "&" || ch === "~" || ch === "#" ? ch : `\\${ch}`;
      if (" \t\n\r\v\f".includes(ch)) return `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;
      return ch;
    })
    .join("");
}

export function parameterize(string, separator = "-") {
  let s = transliterate(string);
  s = s.replace(/[^a-z0-9\-_]+/gi, () => separator);
  if (separator) {
    const sep = pyEscape(separator);
    s = s.replace(new RegExp(`${sep}{2,}`, "gu"), () => separator);
    s = s.replace(new RegExp(`^${sep}|${sep}${END}`, "giu"), "");
  }
  return s.toLowerCase();
}

export function underscore(word) {
  let w = word.replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2");
  w = w.replace(/([a-z\p{Nd}])([A-Z])/gu, "$1_$2");
  return w.replaceAll("-", "_").toLowerCase();
}

export function tableize(word) {
  return pluralize(underscore(word));
}

export function titleize(word) {
  const boundary = `(?:(?<!${W})(?=${W})|(?<=${W})(?!${W}))`;
  return pyTitle(humanize(underscore(word))).replace(
    new RegExp(`${boundary}('?${W})`, "gu"),
    (_m, g) => pyCapitalize(g),
  );
}
