// Python float semantics in JavaScript: float(str) parsing, repr(), and exact '%.Nf' / '{:.Ne}' formatting
// (correctly rounded, ties to even, on the exact binary value — as CPython does).

const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "gu");
const DIG = "\\p{Nd}(?:_?\\p{Nd})*";
const FLOAT = new RegExp(
  `^[+-]?(?:(?:${DIG}(?:\\.(?:${DIG})?)?|\\.${DIG})(?:[eE][+-]?${DIG})?|inf|infinity|nan)$`,
  "iu",
);

function digitValue(ch) {
  let cp = ch.codePointAt(0);
  let offset = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(cp - 1)) && offset < 64) {
    cp -= 1;
    offset += 1;
  }
  return offset % 10;
}

/** Python float(text), or null where Python raises ValueError. */
export function pyFloat(text) {
  const body = text.replace(STRIP, "");
  if (!FLOAT.test(body)) return null;
  const ascii = Array.from(body)
    .filter((ch) => ch !== "_")
    .map((ch) => (/\p{Nd}/u.test(ch) ? String(digitValue(ch)) : ch))
    .join("")
    .toLowerCase();
  const sign = ascii.startsWith("-") ? -1 : 1;
  const bare = ascii.replace(/^[+-]/, "");
  if (bare === "nan") return Number.NaN;
  if (bare === "inf" || bare === "infinity") return sign * Number.POSITIVE_INFINITY;
  return Number(ascii);
}

function decompose(x) {
  // |x| = m * 2**e exactly.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return [m, -1074];
  m |= 1n << 52n;
  return [m, biased - 1075];
}

function roundDiv(num, den) {
  // num/den rounded to an integer, ties to even (num, den > 0).
  let q = num / den;
  const twice = 2n * (num - q * den);
  if (twice > den || (twice === den && q % 2n === 1n)) q += 1n;
  return q;
}

function notFinite(x) {
  if (Number.isNaN(x)) return "nan";
  return x > 0 ? "inf" : "-inf";
}

const signOf = (x) => (x < 0 || Object.is(x, -0) ? "-" : "");

/** Python '%.{f}f' % x (also format(x, '.{f}f')). */
export function fmtFixed(x, f) {
  if (!Number.isFinite(x)) return notFinite(x);
  const [m, e] = decompose(x);
  const scale = 10n ** BigInt(f);
  const q = e >= 0 ? (m << BigInt(e)) * scale : roundDiv(m * scale, 1n << BigInt(-e));
  const digits = q.toString().padStart(f + 1, "0");
  const whole = digits.slice(0, digits.length - f);
  return signOf(x) + (f ? `${whole}.${digits.slice(digits.length - f)}` : whole);
}

function ratio(x) {
  const [m, e] = decompose(x);
  return e >= 0 ? [m << BigInt(e), 1n] : [m, 1n << BigInt(-e)];
}

/** Python '{:.{p}e}'.format(x). */
export function fmtExp(x, p) {
  if (!Number.isFinite(x)) return notFinite(x);
  const sign = signOf(x);
  let exponent = 0;
  let q = 0n;
  if (x !== 0) {
    const [num, den] = ratio(x);
    exponent = Math.floor(Math.log10(Math.abs(x)));
    // Fix the estimate exactly: 10**exponent <= |x| < 10**(exponent+1).
    const atLeast = (k) => (k >= 0 ? num >= den * 10n ** BigInt(k) : num * 10n ** BigInt(-k) >= den);
    while (!atLeast(exponent)) exponent -= 1;
    while (atLeast(exponent + 1)) exponent += 1;
    const shift = p - exponent;
    q = shift >= 0 ? roundDiv(num * 10n ** BigInt(shift), den) : roundDiv(num, den * 10n ** BigInt(-shift));
    if (q === 10n ** BigInt(p + 1)) {
      q /= 10n;
      exponent += 1;
    }
  }
  const digits = q.toString().padStart(p + 1, "0");
  const mantissa = p ? `${digits[0]}.${digits.slice(1)}` : digits;
  const expText = String(Math.abs(exponent)).padStart(2, "0");
  return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${expText}`;
}

/** Python repr(float) / str(float). */
export function floatRepr(x) {
  if (!Number.isFinite(x)) return notFinite(x);
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mant, expPart] = Math.abs(x).toExponential().split("e");
  const digits = mant.replace(".", "");
  const exponent = Number(expPart);
  const sign = x < 0 ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
    const frac = digits.slice(exponent + 1) || "0";
    return `${sign}${whole}.${frac}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
}

/** Exact numerator/denominator of a finite float, as BigInts (denominator > 0, reduced). */
export function floatRatio(x) {
  const [num, den] = ratio(x);
  const g = gcd(num, den);
  const n = num / g;
  return [x < 0 ? -n : n, den / g];
}

export function gcd(a, b) {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}
