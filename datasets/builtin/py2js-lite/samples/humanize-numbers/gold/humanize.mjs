// A port of the English behaviour of humanize 4.9.0's number and file-size functions. Inputs are strings,
// parsed as Python's float()/int() would; outputs keep CPython's float formatting.
import { floatRatio, floatRepr, fmtExp, fmtFixed, gcd, pyFloat } from "./pyfloat.mjs";
import { pyInt } from "./pytext.mjs";

export function formatNotFinite(x) {
  if (Number.isNaN(x)) return "NaN";
  return x < 0 ? "-Inf" : "+Inf";
}

function intOrNull(value) {
  // The shared prologue: float(value) must parse (else str(value)); non-finite is reported; then int(value).
  const f = pyFloat(value);
  if (f === null) return { text: value };
  if (!Number.isFinite(f)) return { text: formatNotFinite(f) };
  const n = pyInt(value);
  return n === null ? { text: value } : { n };
}

export function ordinal(value) {
  const { n, text } = intOrNull(value);
  if (n === undefined) return text;
  const suffixes = ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"];
  const mod = (a, b) => ((a % b) + b) % b; // Python's floor modulo
  if ([11n, 12n, 13n].includes(mod(n, 100n))) return `${n}th`;
  return `${n}${suffixes[Number(mod(n, 10n))]}`;
}

export function intcomma(value) {
  const stripped = value.replaceAll(",", "");
  const f = pyFloat(stripped);
  if (f === null) return stripped;
  if (!Number.isFinite(f)) return formatNotFinite(f);
  let orig;
  if (stripped.includes(".")) {
    orig = floatRepr(f);
  } else {
    const n = pyInt(stripped);
    if (n === null) return stripped;
    orig = n.toString();
  }
  for (;;) {
    const next = orig.replace(/^(-?\d+)(\d{3})/, "$1,$2");
    if (next === orig) return next;
    orig = next;
  }
}

const POWERS = [3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 100].map((k) => 10n ** BigInt(k));
const HUMAN = [
  "thousand", "million", "billion", "trillion", "quadrillion", "quintillion", "sextillion",
  "septillion", "octillion", "nonillion", "decillion", "googol",
];

export function intword(value) {
  let { n, text } = intOrNull(value);
  if (n === undefined) return text;
  let negative = "";
  if (n < 0n) {
    n = -n;
    negative = "-";
  }
  if (n < POWERS[0]) return negative + n;
  for (let i = 1; i < POWERS.length; i += 1) {
    if (n < POWERS[i]) {
      let chopped = Number(n) / Number(POWERS[i - 1]);
      const difference = Number(POWERS[i] / POWERS[i - 1]);
      if (Number(fmtFixed(chopped, 1)) === difference) {
        chopped = Number(n) / Number(POWERS[i]);
        return `${negative}${fmtFixed(chopped, 1)} ${HUMAN[i]}`;
      }
      return `${negative}${fmtFixed(chopped, 1)} ${HUMAN[i - 1]}`;
    }
  }
  return negative + n;
}

export function apnumber(value) {
  const { n, text } = intOrNull(value);
  if (n === undefined) return text;
  if (!(n >= 0n && n < 10n)) return n.toString();
  return ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"][Number(n)];
}

const floorDiv = (a, b) => {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
};
const abs = (a) => (a < 0n ? -a : a);

export function limitDenominator(num, den, max) {
  // Python's Fraction.limit_denominator on a reduced num/den (den > 0).
  if (den <= max) return [num, den];
  let [p0, q0, p1, q1] = [0n, 1n, 1n, 0n];
  let [n, d] = [num, den];
  for (;;) {
    const a = floorDiv(n, d);
    const q2 = q0 + a * q1;
    if (q2 > max) break;
    [p0, q0, p1, q1] = [p1, q1, p0 + a * p1, q2];
    [n, d] = [d, n - a * d];
  }
  const k = floorDiv(max - q0, q1);
  const b1 = [p0 + k * p1, q0 + k * q1];
  const b2 = [p1, q1];
  const dist2 = abs(b2[0] * den - num * b2[1]) * b1[1];
  const dist1 = abs(b1[0] * den - num * b1[1]) * b2[1];
  const pick = dist2 <= dist1 ? b2 : b1;
  const g = gcd(pick[0], pick[1]);
  return [pick[0] / g, pick[1] / g];
}

export function fractional(value) {
  const number = pyFloat(value);
  if (number === null) return value;
  if (!Number.isFinite(number)) return formatNotFinite(number);
  const whole = Math.trunc(number);
  const [fn, fd] = floatRatio(number - whole);
  const [numerator, denominator] = limitDenominator(fn, fd, 1000n);
  const f0 = (big) => fmtFixed(Number(big), 0);
  if (whole !== 0 && numerator === 0n && denominator === 1n) return fmtFixed(whole, 0);
  if (whole === 0) return `${f0(numerator)}/${f0(denominator)}`;
  return `${fmtFixed(whole, 0)} ${f0(numerator)}/${f0(denominator)}`;
}

const SUPERSCRIPT = { 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹", "-": "⁻" };

export function scientificOf(x, precision = 2) {
  if (!Number.isFinite(x)) return formatNotFinite(x);
  const [part1, raw] = fmtExp(x, precision).split("e");
  const part2 = raw.replace(/^\+?(-?)0*(.+)$/, "$1$2");
  return `${part1} x 10${[...part2].map((ch) => SUPERSCRIPT[ch]).join("")}`;
}

export function scientific(value, precision = 2) {
  const x = pyFloat(value);
  if (x === null) return value;
  return scientificOf(x, precision);
}

export function metric(value, unit = "", precision = 3) {
  if (!Number.isFinite(value)) return formatNotFinite(value);
  const exponent = value !== 0 ? Math.floor(Math.log10(Math.abs(value))) : 0;
  if (exponent >= 33 || exponent < -30) return scientificOf(value, precision - 1) + unit;
  const k = Math.floor(exponent / 3) * 3;
  value = k >= 0 ? value / Number(10n ** BigInt(k)) : value / 10 ** k;
  let prefix = "";
  if (exponent >= 3) prefix = "kMGTPEZYRQ"[Math.floor(exponent / 3) - 1];
  else if (exponent < 0) prefix = [..."mμnpfazyrq"][Math.floor((-exponent - 1) / 3)];
  const mod3 = ((exponent % 3) + 3) % 3;
  const text = fmtFixed(value, precision - mod3 - 1);
  const space = !(unit || prefix) || ["°", "′", "″"].includes(unit) ? "" : " ";
  return `${text}${space}${prefix}${unit}`;
}

const SUFFIXES = {
  decimal: [" kB", " MB", " GB", " TB", " PB", " EB", " ZB", " YB"],
  binary: [" KiB", " MiB", " GiB", " TiB", " PiB", " EiB", " ZiB", " YiB"],
  gnu: [..."KMGTPEZY"],
};

function floatBelowInt(x, big) {
  // Python compares a float with an int exactly (no rounding of the int).
  if (!Number.isFinite(x)) return x === Number.NEGATIVE_INFINITY;
  const [num, den] = floatRatio(x);
  return num < big * den;
}

/** naturalsize(value, binary, gnu, "%.{digits}f"); returns null where float(value) raises. */
export function naturalsize(value, binary = false, gnu = false, digits = 1) {
  const suffix = gnu ? SUFFIXES.gnu : binary ? SUFFIXES.binary : SUFFIXES.decimal;
  const base = gnu || binary ? 1024 : 1000;
  const bytes = pyFloat(value);
  if (bytes === null) return null;
  const absBytes = Math.abs(bytes);
  const d = (x) => String(Math.trunc(x)).replace(/^-0$/, "0");
  if (absBytes === 1 && !gnu) return `${d(bytes)} Byte`;
  if (absBytes < base && !gnu) return `${d(bytes)} Bytes`;
  if (absBytes < base && gnu) return `${d(bytes)}B`;
  let i = 0;
  for (; i < suffix.length; i += 1) {
    if (floatBelowInt(absBytes, BigInt(base) ** BigInt(i + 2))) break;
  }
  if (i === suffix.length) i -= 1;
  const unit = Number(BigInt(base) ** BigInt(i + 2));
  return fmtFixed((base * bytes) / unit, digits) + suffix[i];
}
