// Bit string converter: a port of bitstring-g01 (bitstring.Bits) without the Python library.

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i + 1 < argv.length; i += 2) out[argv[i].replace(/^--/, "")] = argv[i + 1];
  return out;
}

class BitsError extends Error {}

const WS_RE = /[\t\n\u000b\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g;

// bitstring's tidy_input_string: drop whitespace, lower-case, drop underscores.
const tidy = (s) => s.replace(WS_RE, "").toLowerCase().replace(/_/g, "");

function fromBin(s) {
  const t = tidy(s).split("0b").join("");
  if (!/^[01]*$/.test(t)) throw new BitsError(`Invalid character in bin initialiser ${t}.`);
  return t;
}

function fromHex(s) {
  const t = tidy(s).split("0x").join("");
  if (!/^[0-9a-f]*$/.test(t)) throw new BitsError("Invalid symbol in hex initialiser.");
  return Array.from(t, (c) => Number.parseInt(c, 16).toString(2).padStart(4, "0")).join("");
}

function fromOct(s) {
  const t = tidy(s).split("0o").join("");
  if (!/^[0-7]*$/.test(t)) throw new BitsError("Invalid symbol in oct initialiser.");
  return Array.from(t, (c) => Number.parseInt(c, 8).toString(2).padStart(3, "0")).join("");
}

function fromInt(value, length, signed) {
  if (length === 0n) {
    throw new BitsError(`A non-zero length must be specified with ${signed ? "an int" : "a uint"} initialiser.`);
  }
  if (length < 0n) throw new BitsError("length must be > 0");
  if (signed) {
    const lo = -(1n << (length - 1n));
    const hi = (1n << (length - 1n)) - 1n;
    if (value < lo || value > hi) {
      throw new BitsError(
        `${value} is too large a signed integer for a bitstring of length ${length}. The allowed range is [${lo}, ${hi}].`,
      );
    }
    const v = value < 0n ? value + (1n << length) : value;
    return v.toString(2).padStart(Number(length), "0");
  }
  if (value >= 1n << length) {
    throw new BitsError(
      `${value} is too large an unsigned integer for a bitstring of length ${length}. The allowed range is [0, ${(1n << length) - 1n}].`,
    );
  }
  if (value < 0n) throw new BitsError("uint cannot be initialised with a negative number.");
  return value.toString(2).padStart(Number(length), "0");
}

// argparse type=int: Python int() of the argument text.
function pyInt(s) {
  const t = s.replace(/^[\s]+|[\s]+$/g, "");
  if (!/^[+-]?[0-9](_?[0-9])*$/.test(t)) return null;
  return BigInt(t.replace(/_/g, ""));
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const sources = ["bin", "hex", "oct", "uint", "int"].filter((k) => args[k] !== undefined);
  if (sources.length !== 1) {
    process.stdout.write("error: give exactly one of --bin, --hex, --oct, --uint, --int\n");
    return;
  }
  const kind = sources[0];
  let bits;
  try {
    if (kind === "uint" || kind === "int") {
      if (args.length === undefined) throw new BitsError(`--length is required with --${kind}`);
      bits = fromInt(pyInt(args[kind]), pyInt(args.length), kind === "int");
    } else if (kind === "bin") bits = fromBin(args.bin);
    else if (kind === "hex") bits = fromHex(args.hex);
    else bits = fromOct(args.oct);
  } catch (exc) {
    if (!(exc instanceof BitsError)) throw exc;
    process.stdout.write(`error: ${exc.message}\n`);
    return;
  }
  const n = bits.length;
  const out = [`length: ${n}`, `bin: ${bits}`];
  let hex = "n/a";
  if (n % 4 === 0) {
    hex = "";
    for (let i = 0; i < n; i += 4) hex += Number.parseInt(bits.slice(i, i + 4), 2).toString(16);
  }
  let oct = "n/a";
  if (n % 3 === 0) {
    oct = "";
    for (let i = 0; i < n; i += 3) oct += Number.parseInt(bits.slice(i, i + 3), 2).toString(8);
  }
  out.push(`hex: ${hex}`, `oct: ${oct}`);
  if (n) {
    const u = BigInt("0b" + bits);
    const s = bits[0] === "1" ? u - (1n << BigInt(n)) : u;
    const ones = bits.split("").filter((c) => c === "1").length;
    out.push(`uint: ${u}`, `int: ${s}`, `ones: ${ones}, zeros: ${n - ones}`);
    out.push(`reversed: ${bits.split("").reverse().join("")}`);
    const first = bits.indexOf("1");
    out.push(`first set bit: ${first < 0 ? "none" : first}`);
  } else {
    out.push("empty");
  }
  process.stdout.write(out.join("\n") + "\n");
}

main();
