// Human-readable file sizes: a JavaScript port of humanize_size.py.
import { naturalsize } from "./humanize.mjs";
import { pyInt, readStdin, splitlines } from "./pytext.mjs";

const NAMES = ["bytes", "mode", "precision"];
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

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const mode = opts.get("mode") ?? "decimal";
  if (!["decimal", "binary", "gnu"].includes(mode)) return print("error: --mode must be decimal, binary or gnu");
  const precision = pyInt(opts.get("precision") ?? "1");
  if (precision === null) return print("error: --precision is not an integer");
  if (!(precision >= 0n && precision <= 12n)) return print("error: --precision must be between 0 and 12");
  const lines = opts.has("bytes") ? [opts.get("bytes")] : splitlines(readStdin());
  lines.forEach((line, i) => {
    const size = naturalsize(line, mode === "binary", mode === "gnu", Number(precision));
    print(size === null ? `line ${i + 1}: not a number` : size);
  });
}

main();
process.stdout.write(out.join(""));
