// Cut a list of items into chunks, windows and groups: a JavaScript port of moreitertools_windows.py.
import { chunked, chunkedEven, distribute, divide, splitAt, windowed } from "./moreiter.mjs";
import { repr } from "./pyrepr.mjs";
import { pyInt } from "./pytext.mjs";
import { PyValueError } from "./pyvalueerror.mjs";

const NAMES = ["items", "n", "step", "sep", "maxsplit"];
const out = [];
const print = (line) => out.push(`${line}\n`);

function usage(message) {
  process.stderr.write(`usage error: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  if (argv.length % 2) usage("expected --name value pairs");
  const opts = new Map();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    if (!key.startsWith("--") || !NAMES.includes(key.slice(2))) usage(`unknown argument ${key}`);
    opts.set(key.slice(2), argv[i + 1]);
  }
  return opts;
}

function show(name, compute) {
  try {
    print(`${name}: ${repr(compute())}`);
  } catch (err) {
    if (!(err instanceof PyValueError)) throw err;
    print(`${name}: error: ${err.message}`);
  }
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const text = opts.get("items") ?? "";
  const items = text ? text.split(",") : [];
  const [n, step, maxsplit] = [["n", "2"], ["step", "1"], ["maxsplit", "-1"]].map(([k, d]) => pyInt(opts.get(k) ?? d));
  if ([n, step, maxsplit].includes(null)) return print("error: --n, --step and --maxsplit must be integers");
  if (n > 1000n || n < -1000n) return print("error: --n must be within -1000..1000");
  const sep = opts.get("sep") ?? "|";
  const [N, STEP] = [Number(n), step > 10n ** 6n ? 10 ** 6 : step < -1n ? -1 : Number(step)];
  const MAXSPLIT = maxsplit < -1n ? -2 : maxsplit > 10n ** 6n ? 10 ** 6 : Number(maxsplit);
  print(`items: ${repr(items)}`);
  show("chunked", () => (N > 0 ? chunked(items, N) : "skipped (n < 1)"));
  show("chunked_even", () => (N > 0 ? chunkedEven(items, N) : "skipped (n < 1)"));
  show("windowed", () => windowed(items, N, null, STEP));
  show("distribute", () => distribute(N, items));
  show("divide", () => divide(N, items));
  show("split_at", () => splitAt(items, (item) => item === sep, MAXSPLIT));
}

main();
process.stdout.write(out.join(""));
