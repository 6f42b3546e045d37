// Port of construct-g01: fixed-width bit-strings (construct.lib integer2bits / bits2integer / integer2bytes).

function parseArgs(argv) {
  const out = { value: 0n, width: 8, signed: false };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, "");
    const raw = argv[i + 1];
    if (name === "value") out.value = BigInt(raw.trim().replace(/_/g, ""));
    else if (name === "width") out.width = Number(BigInt(raw.trim().replace(/_/g, "")));
    else if (name === "signed") out.signed = raw === "true";
  }
  return out;
}

const pyBool = (b) => (b ? "True" : "False");

function integer2bits(number, width, signed) {
  if (!(width >= 1)) throw new Error(`width ${width} must be positive`);
  const w = BigInt(width);
  let min, max;
  if (signed) {
    min = -((1n << w) / 2n);
    max = (1n << w) / 2n - 1n;
  } else {
    min = 0n;
    max = (1n << w) - 1n;
  }
  if (!(min <= number && number <= max)) throw new Error(`number ${number} is out of range (min=${min}, max=${max})`);
  if (number < 0n) number += 1n << w;
  const bits = new Array(width).fill(0);
  let i = width - 1;
  while (number && i >= 0) {
    bits[i] = Number(number & 1n);
    number >>= 1n;
    i -= 1;
  }
  return bits;
}

function bits2integer(bits, signed = false) {
  let n = 0n;
  for (const b of bits) n = (n << 1n) | BigInt(b);
  if (signed && bits[0]) return n - (1n << BigInt(bits.length));
  return n;
}

function integer2bytes(number, width, signed) {
  if (!(width >= 1)) throw new Error(`width ${width} must be positive`);
  const bitsTotal = BigInt(width * 8);
  const fits = signed
    ? number >= -(1n << (bitsTotal - 1n)) && number < 1n << (bitsTotal - 1n)
    : number >= 0n && number < 1n << bitsTotal;
  if (!fits) throw new Error(`number ${number} does not fit width ${width}, signed ${pyBool(signed)}`);
  let v = number < 0n ? number + (1n << bitsTotal) : number;
  return v.toString(16).padStart(width * 2, "0");
}

const args = parseArgs(process.argv.slice(2));
let bits;
try {
  bits = integer2bits(args.value, args.width, args.signed);
} catch (exc) {
  console.log(`error: ${exc.message}`);
  process.exit(0);
}
const text = bits.join("");
const groups = [];
for (let i = 0; i < text.length; i += 4) groups.push(text.slice(i, i + 4));
console.log(`bits: ${groups.join(" ")}`);
console.log(`set bits: ${bits.reduce((a, b) => a + b, 0)}`);
console.log(`unsigned: ${bits2integer(bits)}`);
console.log(`signed: ${bits2integer(bits, true)}`);
if (((args.width % 8) + 8) % 8 === 0) {
  try {
    console.log(`bytes: ${integer2bytes(args.value, Math.floor(args.width / 8), args.signed)}`);
  } catch (exc) {
    console.log(`bytes: error: ${exc.message}`);
  }
} else {
  console.log("bytes: width is not a whole number of bytes");
}
