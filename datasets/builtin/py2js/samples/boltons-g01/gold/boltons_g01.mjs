// Value snapper: a JavaScript port of boltons-g01 (boltons.mathutils ceil, floor, clamp).
import { loads, PyFloat, floatRepr, JSONError } from "./pyjson.mjs";

const out = [];
const print = (s) => out.push(s + "\n");

class PyError extends Error {}

// Python float(): optional whitespace, sign, digits with optional fraction/exponent, inf/infinity/nan.
function pyFloat(text) {
  const t = text.trim().replace(/_/g, "");
  const m = /^([+-]?)(inf|infinity|nan)$/i.exec(t);
  if (m) {
    if (m[2].toLowerCase() === "nan") return NaN;
    return m[1] === "-" ? -Infinity : Infinity;
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) throw new PyError("bad float");
  return Number(t);
}

// Numbers are JS numbers (Python floats) or BigInt (Python ints).
const isFloat = (v) => typeof v === "number";
const lt = (a, b) => a < b; // exact for mixed BigInt/Number in JS, false with NaN

function repr(v) {
  if (typeof v === "bigint") return v.toString();
  if (Number.isNaN(v)) return "nan";
  if (v === Infinity) return "inf";
  if (v === -Infinity) return "-inf";
  return floatRepr(v);
}

function toInt(x, rounder) {
  if (Number.isNaN(x)) throw new PyError("cannot convert float NaN to integer");
  if (!Number.isFinite(x)) throw new PyError("cannot convert float infinity to integer");
  return BigInt(rounder(x));
}

function stableSort(arr) {
  // insertion-stable merge sort using only `<`
  const idx = arr.map((v, i) => [v, i]);
  idx.sort((p, q) => (lt(p[0], q[0]) ? -1 : lt(q[0], p[0]) ? 1 : p[1] - q[1]));
  return idx.map((p) => p[0]);
}

function ceil(x, options) {
  if (options === null) return toInt(x, Math.ceil);
  const o = stableSort(options);
  let lo = 0;
  let hi = o.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lt(o[mid], x)) lo = mid + 1;
    else hi = mid;
  }
  if (lo === o.length) throw new PyError(`no ceil options greater than or equal to: ${repr(x)}`);
  return o[lo];
}

function floor(x, options) {
  if (options === null) return toInt(x, Math.floor);
  const o = stableSort(options);
  let lo = 0;
  let hi = o.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lt(x, o[mid])) hi = mid;
    else lo = mid + 1;
  }
  if (lo === 0) throw new PyError(`no floor options less than or equal to: ${repr(x)}`);
  return o[lo - 1];
}

function clamp(x, lower, upper) {
  if (lt(upper, lower)) throw new PyError(`expected upper bound (${repr(upper)}) >= lower bound (${repr(lower)})`);
  let v = x;
  if (lt(v, lower)) v = lower; // max(x, lower): x unless lower > x
  if (lt(upper, v)) v = upper; // min(v, upper): v unless upper < v
  return v;
}

function report(label, fn) {
  try {
    print(`${label}: ${repr(fn())}`);
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    print(`${label}: error: ${e.message}`);
  }
}

function main() {
  const argv = process.argv.slice(2);
  const args = { value: null, options: null, lower: "-inf", upper: "inf" };
  for (let i = 0; i < argv.length; i += 2) args[argv[i].replace(/^--/, "")] = argv[i + 1];
  const value = pyFloat(args.value);
  const lower = pyFloat(args.lower);
  const upper = pyFloat(args.upper);

  let options = null;
  if (args.options !== null && args.options !== undefined) {
    let ok = true;
    try {
      const parsed = loads(args.options);
      if (!Array.isArray(parsed)) ok = false;
      else {
        options = parsed.map((v) => {
          if (typeof v === "bigint") return v;
          if (v instanceof PyFloat) return v.value;
          ok = false;
          return null;
        });
      }
    } catch (e) {
      if (!(e instanceof JSONError)) throw e;
      ok = false;
    }
    if (!ok) {
      print("error: --options must be a JSON list of numbers");
      return;
    }
  }
  print(`value: ${repr(value)}`);
  if (options !== null) print(`options: ${options.length}`);
  report("ceil", () => ceil(value, options));
  report("floor", () => floor(value, options));
  report("clamp", () => clamp(value, lower, upper));
}

main();
process.stdout.write(out.join(""));
