// Print the first digits of a mathematical constant (truncated, not rounded), grouped in blocks.
// Port of mpmath-g01 (mpmath 1.3.0): the constants are computed with BigInt fixed-point series.

const PROG = "mpmath_g01.mjs";
const NAMES = ["pi", "e", "phi", "euler", "catalan", "ln2", "ln10", "sqrt2", "sqrt3", "apery"];

function usage(message) {
  process.stderr.write(
    `usage: ${PROG} [-h] --constant CONSTANT [--digits DIGITS] [--group GROUP]\n${PROG}: error: ${message}\n`,
  );
  process.exit(2);
}

function pyInt(text, name) {
  const t = text.trim();
  if (!/^[+-]?\d+(_\d+)*$/.test(t)) usage(`argument --${name}: invalid int value: '${text}'`);
  return Number(BigInt(t.replace(/_/g, "")));
}

function parseArgs(argv) {
  const opts = {};
  const names = ["constant", "digits", "group"];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let name;
    let value;
    if (arg.startsWith("--") && arg.includes("=")) {
      name = arg.slice(2, arg.indexOf("="));
      value = arg.slice(arg.indexOf("=") + 1);
    } else if (arg.startsWith("--")) {
      name = arg.slice(2);
      if (!names.includes(name)) usage(`unrecognized arguments: ${arg}`);
      if (i + 1 >= argv.length) usage(`argument --${name}: expected one argument`);
      value = argv[++i];
    } else {
      usage(`unrecognized arguments: ${arg}`);
    }
    if (!names.includes(name)) usage(`unrecognized arguments: ${arg}`);
    opts[name] = value;
  }
  if (opts.constant === undefined) usage("the following arguments are required: --constant");
  return {
    constant: opts.constant,
    digits: opts.digits === undefined ? 50 : pyInt(opts.digits, "digits"),
    group: opts.group === undefined ? 10 : pyInt(opts.group, "group"),
  };
}

// ---- fixed-point arithmetic: a value x is represented by round(x * S), S = 10^P ----
function isqrt(n) {
  // floor(sqrt(n)) by Newton's iteration from an upper bound
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

function atanInv(x, S) {
  // atan(1/x) = sum (-1)^k / ((2k+1) x^(2k+1))
  const x2 = x * x;
  let power = S / x;
  let sum = 0n;
  let k = 0n;
  while (power !== 0n) {
    const term = power / (2n * k + 1n);
    sum += k % 2n === 0n ? term : -term;
    power /= x2;
    k++;
  }
  return sum;
}

function atanhInv(x, S) {
  // atanh(1/x) = sum 1 / ((2k+1) x^(2k+1))
  const x2 = x * x;
  let power = S / x;
  let sum = 0n;
  let k = 0n;
  while (power !== 0n) {
    sum += power / (2n * k + 1n);
    power /= x2;
    k++;
  }
  return sum;
}

function atanhFixed(y, S) {
  // atanh(y) for a fixed-point y with |y| < 1
  const y2 = (y * y) / S;
  let power = y;
  let sum = 0n;
  let k = 0n;
  while (power !== 0n) {
    sum += power / (2n * k + 1n);
    power = (power * y2) / S;
    k++;
  }
  return sum;
}

function computePi(S) {
  return 16n * atanInv(5n, S) - 4n * atanInv(239n, S);
}

function computeE(S) {
  let term = S;
  let sum = 0n;
  let k = 1n;
  while (term !== 0n) {
    sum += term;
    term /= k;
    k++;
  }
  return sum;
}

const sqrtFixed = (n, S) => isqrt(n * S * S);
const ln2Fixed = (S) => 2n * atanhInv(3n, S);

function zeta3(S) {
  // zeta(3) = 5/2 * sum_{k>=1} (-1)^(k+1) / (k^3 * C(2k, k))
  let c = 1n; // C(2k, k), updated incrementally
  let sum = 0n;
  for (let k = 1n; ; k++) {
    c = (c * (2n * k) * (2n * k - 1n)) / (k * k);
    const term = S / (k * k * k * c);
    if (term === 0n) break;
    sum += k % 2n === 1n ? term : -term;
  }
  return (5n * sum) / 2n;
}

function catalan(S) {
  // G = pi/8 * ln(2 + sqrt 3) + 3/8 * sum_{n>=0} 1 / ((2n+1)^2 * C(2n, n))
  let c = 1n;
  let sum = 0n;
  for (let n = 0n; ; n++) {
    if (n > 0n) c = (c * (2n * n) * (2n * n - 1n)) / (n * n);
    const d = 2n * n + 1n;
    const term = S / (d * d * c);
    if (term === 0n) break;
    sum += term;
  }
  const x = 2n * S + sqrtFixed(3n, S); // 2 + sqrt 3
  const y = ((x - S) * S) / (x + S); // (x - 1) / (x + 1)
  const lnx = 2n * atanhFixed(y, S);
  return (computePi(S) * lnx) / (8n * S) + (3n * sum) / 8n;
}

function euler(S, P) {
  // Brent-McMillan: gamma = U/V - (error ~ exp(-4n)), with n a power of two
  let m = 1n;
  while (2 ** Number(m) < 0.6 * P + 10) m++;
  const n = 1n << m;
  const n2 = n * n;
  const lnN = m * ln2Fixed(S);
  let a = -lnN;
  let b = S;
  let u = a;
  let v = b;
  for (let k = 1n; ; k++) {
    b = (b * n2) / (k * k);
    a = ((a * n2) / k + b) / k;
    u += a;
    v += b;
    if (a === 0n && b === 0n) break;
  }
  return (u * S) / v;
}

function constant(name, S, P) {
  switch (name) {
    case "pi":
      return computePi(S);
    case "e":
      return computeE(S);
    case "phi":
      return (S + sqrtFixed(5n, S)) / 2n;
    case "euler":
      return euler(S, P);
    case "catalan":
      return catalan(S);
    case "ln2":
      return ln2Fixed(S);
    case "ln10":
      return 3n * ln2Fixed(S) + 2n * atanhInv(9n, S);
    case "sqrt2":
      return sqrtFixed(2n, S);
    case "sqrt3":
      return sqrtFixed(3n, S);
    default:
      return zeta3(S);
  }
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const say = (line) => process.stdout.write(line + "\n");
  if (!NAMES.includes(args.constant)) return say(`error: unknown constant: ${args.constant}`);
  if (!(args.digits >= 0 && args.digits <= 2000)) return say("error: --digits must be between 0 and 2000");
  if (args.group < 0) return say("error: --group must not be negative");
  const N = args.digits;
  const P = N + 40;
  const S = 10n ** BigInt(P);
  const value = constant(args.constant, S, P);
  const scaled = value / 10n ** BigInt(P - N); // all constants are positive: truncation = floor
  const text = scaled.toString();
  const whole = text.slice(0, text.length - N) || "0";
  let frac = text.slice(text.length - N);
  if (args.group) {
    const parts = [];
    for (let i = 0; i < frac.length; i += args.group) parts.push(frac.slice(i, i + args.group));
    frac = parts.join(" ");
  }
  say(`${args.constant} = ${whole}` + (N ? `.${frac}` : ""));
  say(`digits: ${N}`);
}

main();
