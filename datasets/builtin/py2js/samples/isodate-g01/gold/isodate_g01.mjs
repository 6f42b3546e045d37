// Port of isodate-g01: ISO 8601 duration builder.
const FIELDS = ["years", "months", "weeks", "days", "hours", "minutes", "seconds"];

function pyInt(s) {
  const t = s.trim().replace(/_/g, "");
  if (!/^[+-]?\d+$/.test(t)) throw new Error(`invalid int value: '${s}'`);
  return BigInt(t);
}

function pad(n, width) {
  // Python "%0<width>d": sign counts toward the width
  const neg = n < 0n;
  let digits = (neg ? -n : n).toString();
  const room = width - (neg ? 1 : 0);
  if (digits.length < room) digits = "0".repeat(room - digits.length) + digits;
  return (neg ? "-" : "") + digits;
}

const abs = (n) => (n < 0n ? -n : n);
const floorDiv = (a, b) => {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
};

function main() {
  const argv = process.argv.slice(2);
  const parts = Object.fromEntries(FIELDS.map((f) => [f, 0n]));
  for (let i = 0; i < argv.length; i += 2) parts[argv[i].slice(2)] = pyInt(argv[i + 1]);
  const { years, months, weeks, days: d, hours, minutes, seconds: s } = parts;
  const total = ((weeks * 7n + d) * 24n + hours) * 3600n + minutes * 60n + s;
  const days = floorDiv(total, 86400n);
  const secs = total - days * 86400n;

  const sign = years < 0n || months < 0n || total < 0n ? "-" : "";
  const isoP = () => {
    const out = [];
    if (years) out.push(`${abs(years)}Y`);
    if (months) out.push(`${abs(months)}M`);
    let u = abs(total);
    const D = u / 86400n;
    u %= 86400n;
    const h = u / 3600n;
    const m = (u % 3600n) / 60n;
    const sec = u % 60n;
    if (D) out.push(`${D}D`);
    if (h || m || sec) {
      out.push("T");
      if (h) out.push(`${h}H`);
      if (m) out.push(`${m}M`);
      if (sec) out.push(`${sec}S`);
    }
    return out.length ? out.join("") : "0D";
  };
  const fmt = (format) =>
    sign +
    format.replace(/%d|%f|%H|%m|%M|%S|%W|%Y|%C|%%|%P|%p/g, (tok) => {
      switch (tok) {
        case "%P": return isoP();
        case "%p": return `${abs(floorDiv(days, 7n))}W`;
        case "%d": return pad(days, 2);
        case "%H": return pad(secs / 3600n, 2);
        case "%M": return pad((secs / 60n) % 60n, 2);
        case "%S": return pad(secs % 60n, 2);
        case "%Y": return pad(years, 4);
        case "%m": return pad(months, 2);
        case "%%": return "%";
        default: return tok;
      }
    });

  const given = FIELDS.filter((f) => parts[f] !== 0n).map((f) => `${f}=${parts[f]}`);
  const lines = [
    given.length ? `input: ${given.join(" ")}` : "input: (nothing)",
    `normalised: years=${years} months=${months} days=${days} seconds=${secs}`,
    `iso: ${fmt("P%P")}`,
    `weeks: ${fmt("P%p")}`,
    `clock: ${fmt("%d days %H:%M:%S")}`,
    `calendar: ${fmt("%Y years %m months")}`,
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

main();
