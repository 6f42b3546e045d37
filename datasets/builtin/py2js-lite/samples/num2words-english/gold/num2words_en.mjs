// A port of num2words 0.5.13's English converter (cardinal, ordinal, ordinal_num, year) over BigInt,
// plus the float path of to_cardinal, with Python's arithmetic.
import { floatRepr } from "./pyfloat.mjs";

const LOWS = ["non", "oct", "sept", "sext", "quint", "quadr", "tr", "b", "m"];
const UNITS = ["", "un", "duo", "tre", "quattuor", "quin", "sex", "sept", "octo", "novem"];
const TENS = ["dec", "vigint", "trigint", "quadragint", "quinquagint", "sexagint", "septuagint", "octogint", "nonagint"];

function buildCards() {
  const high = ["cent", ...TENS.flatMap((t) => UNITS.map((u) => u + t)).reverse(), ...LOWS];
  const cards = [];
  const max = 3 + 3 * high.length;
  high.forEach((word, i) => cards.push([10n ** BigInt(max - 3 * i), `${word}illion`]));
  for (const [n, w] of [[1000, "thousand"], [100, "hundred"], [90, "ninety"], [80, "eighty"], [70, "seventy"],
    [60, "sixty"], [50, "fifty"], [40, "forty"], [30, "thirty"]]) cards.push([BigInt(n), w]);
  const lows = ["twenty", "nineteen", "eighteen", "seventeen", "sixteen", "fifteen", "fourteen", "thirteen",
    "twelve", "eleven", "ten", "nine", "eight", "seven", "six", "five", "four", "three", "two", "one", "zero"];
  lows.forEach((w, i) => cards.push([BigInt(lows.length - 1 - i), w]));
  return cards;
}

const CARDS = buildCards();
const CARD = new Map(CARDS);
export const MAXVAL = 1000n * CARDS[0][0];

export class ConvertError extends Error {}

const pair = (t, n) => ({ t, n });
const isPair = (x) => !Array.isArray(x);

function splitnum(value) {
  for (const [elem, word] of CARDS) {
    if (elem > value) continue;
    const out = [];
    let div;
    let mod;
    if (value === 0n) [div, mod] = [1n, 0n];
    else [div, mod] = [value / elem, value % elem];
    if (div === 1n) {
      out.push(pair(CARD.get(1n), 1n));
    } else {
      if (div === value) return [pair(word.repeat(Number(div)), div * elem)];
      out.push(splitnum(div));
    }
    out.push(pair(word, elem));
    if (mod) out.push(splitnum(mod));
    return out;
  }
  return [];
}

function merge(l, r) {
  if (l.n === 1n && r.n < 100n) return pair(r.t, r.n);
  if (100n > l.n && l.n > r.n) return pair(`${l.t}-${r.t}`, l.n + r.n);
  if (l.n >= 100n && 100n > r.n) return pair(`${l.t} and ${r.t}`, l.n + r.n);
  if (r.n > l.n) return pair(`${l.t} ${r.t}`, l.n * r.n);
  return pair(`${l.t}, ${r.t}`, l.n + r.n);
}

function clean(val) {
  let out = val;
  while (val.length !== 1) {
    out = [];
    const [left, right] = val;
    if (isPair(left) && isPair(right)) {
      out.push(merge(left, right));
      if (val.length > 2) out.push(val.slice(2));
    } else {
      for (const elem of val) {
        if (Array.isArray(elem)) out.push(elem.length === 1 ? elem[0] : clean(elem));
        else out.push(elem);
      }
    }
    val = out;
  }
  return out[0];
}

export function toCardinal(value) {
  let prefix = "";
  if (value < 0n) {
    value = -value;
    prefix = "minus ";
  }
  if (value >= MAXVAL) throw new ConvertError(`abs(${value}) must be less than ${MAXVAL}.`);
  return prefix + clean(splitnum(value)).t;
}

export function toOrdinal(value) {
  if (value < 0n) throw new ConvertError(`Cannot treat negative num ${value} as ordinal.`);
  const outwords = toCardinal(value).split(" ");
  const lastwords = outwords[outwords.length - 1].split("-");
  let last = lastwords[lastwords.length - 1].toLowerCase();
  const ords = {
    one: "first", two: "second", three: "third", four: "fourth", five: "fifth", six: "sixth",
    seven: "seventh", eight: "eighth", nine: "ninth", ten: "tenth", eleven: "eleventh", twelve: "twelfth",
  };
  if (Object.hasOwn(ords, last)) {
    last = ords[last];
  } else {
    if (last.endsWith("y")) last = `${last.slice(0, -1)}ie`;
    last += "th";
  }
  lastwords[lastwords.length - 1] = last;
  outwords[outwords.length - 1] = lastwords.join("-");
  return outwords.join(" ");
}

export function toOrdinalNum(value) {
  return `${value}${toOrdinal(value).slice(-2)}`;
}

export function toYear(val) {
  let suffix = null;
  if (val < 0n) {
    val = -val;
    suffix = "BC";
  }
  const high = val / 100n;
  const low = val % 100n;
  let text;
  if (high === 0n || (high % 10n === 0n && low < 10n) || high >= 100n) {
    text = toCardinal(val);
  } else {
    const lowText = low === 0n ? "hundred" : low < 10n ? `oh-${toCardinal(low)}` : toCardinal(low);
    text = `${toCardinal(high)} ${lowText}`;
  }
  return suffix ? `${text} ${suffix}` : text;
}

function roundHalfEven(x) {
  const f = Math.floor(x);
  const diff = x - f;
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** to_cardinal of a non-integral finite float: "<pre> point d d d". */
export function toCardinalFloat(value) {
  const pre = Math.trunc(value);
  const text = floatRepr(value);
  let precision;
  const [mantissa, exp] = text.replace("-", "").split("e");
  const fraction = mantissa.includes(".") ? mantissa.split(".")[1] : "";
  if (exp === undefined) precision = fraction.length;
  else precision = Math.abs(Number(exp) - fraction.length);
  let post = Math.abs(value - pre) * Number(10n ** BigInt(precision));
  post = Math.abs(roundHalfEven(post) - post) < 0.01 ? roundHalfEven(post) : Math.floor(post);
  const digits = BigInt(post).toString().padStart(precision, "0");
  const out = [toCardinal(BigInt(pre))];
  if (precision) out.push("point");
  for (let i = 0; i < precision; i += 1) out.push(toCardinal(BigInt(digits[i])));
  return out.join(" ");
}
