// Parse ISO 8601 durations and print them back: a JavaScript port of isodate_duration.py.
import { PERIOD, Timedelta, durationIsoformat, parseDuration } from "./duration.mjs";
import { floatRepr } from "./pyfloat.mjs";
import { readFileSync } from "node:fs";

const NAMES = ["duration"];
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

function splitlines(text) {
  const parts = text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/);
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

function show(text) {
  if (!PERIOD.test(text)) return print(`error: not a PnYnMnDTnHnMnS duration: ${text}`);
  const value = parseDuration(text);
  print(`kind: ${value instanceof Timedelta ? "timedelta" : "Duration"}`);
  print(`str: ${value}`);
  print(`iso: ${durationIsoformat(value)}`);
  if (value instanceof Timedelta) {
    print(`total_seconds: ${floatRepr(value.totalSeconds())}`);
  } else {
    print(`years: ${value.years}`);
    print(`months: ${value.months}`);
  }
}

const opts = parseArgs(process.argv.slice(2));
const texts = opts.has("duration")
  ? [opts.get("duration")]
  : splitlines(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(readFileSync(0)));
for (const text of texts) show(text);
process.stdout.write(out.join(""));

