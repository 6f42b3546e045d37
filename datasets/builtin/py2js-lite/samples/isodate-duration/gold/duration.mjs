// isodate 0.7.2's parse_duration / duration_isoformat for the PnYnMnDTnHnMnS form, with CPython's
// timedelta construction from floats (exact integer parts, float fractions, round-half-even microseconds)
// and decimal.Decimal years/months kept as text.

const NUM = "[0-9]+(?:[,.][0-9]+)?";
export const PERIOD = new RegExp(
  `^(?<sign>[+-])?P(?=[\\p{L}\\p{N}_])(?:(?<years>${NUM})Y)?(?:(?<months>${NUM})M)?(?:(?<weeks>${NUM})W)?` +
    `(?:(?<days>${NUM})D)?(?:T(?:(?<hours>${NUM})H)?(?:(?<minutes>${NUM})M)?(?:(?<seconds>${NUM})S)?)?(?=\\n?$)`,
  "u",
);

const US = { seconds: 1000000n, minutes: 60000000n, hours: 3600000000n, days: 86400000000n, weeks: 604800000000n };
const US_PER_DAY = 86400000000n;

/** A decimal.Decimal as its canonical text (no exponent forms arise here). */
export class Dec {
  constructor(text) {
    let [whole, frac] = text.split(".");
    const negative = whole.startsWith("-");
    whole = whole.replace("-", "").replace(/^0+(?=\d)/, "");
    this.text = (negative ? "-" : "") + whole + (frac === undefined ? "" : `.${frac}`);
  }

  get isZero() {
    return !/[1-9]/.test(this.text);
  }

  get negative() {
    return this.text.startsWith("-") && !this.isZero;
  }

  neg() {
    if (this.isZero) return new Dec(this.text.replace("-", ""));
    return new Dec(this.negative ? this.text.slice(1) : `-${this.text}`);
  }

  abs() {
    return new Dec(this.text.replace("-", ""));
  }

  truncInt() {
    return BigInt(this.text.split(".")[0]);
  }

  leOne() {
    if (this.negative) return true;
    const [whole, frac = ""] = this.text.split(".");
    return BigInt(whole) < 1n || (BigInt(whole) === 1n && !/[1-9]/.test(frac));
  }

  toString() {
    return this.text;
  }
}

function cRound(x) {
  // C round(): halves away from zero.
  const r = Math.trunc(x);
  return Math.abs(x - r) >= 0.5 ? r + Math.sign(x) : r;
}

export class Timedelta {
  constructor(us) {
    this.us = us; // total microseconds, BigInt
  }

  static fromFloats(parts) {
    let sum = 0n;
    let leftover = 0;
    for (const name of ["seconds", "minutes", "hours", "days", "weeks"]) {
      const x = parts[name] ?? 0;
      if (!x) continue;
      const intpart = Math.trunc(x);
      const frac = x - intpart;
      sum += BigInt(intpart) * US[name];
      if (frac === 0) continue;
      const scaled = Number(US[name]) * frac;
      const int2 = Math.trunc(scaled);
      sum += BigInt(int2);
      leftover += scaled - int2;
    }
    if (leftover) {
      let whole = cRound(leftover);
      if (Math.abs(whole - leftover) === 0.5) {
        const odd = Number(sum & 1n);
        whole = 2 * cRound((leftover + odd) * 0.5) - odd;
      }
      sum += BigInt(whole);
    }
    return new Timedelta(sum);
  }

  get days() {
    const d = this.us / US_PER_DAY;
    return this.us % US_PER_DAY < 0n ? d - 1n : d;
  }

  get seconds() {
    return (this.us - this.days * US_PER_DAY) / 1000000n;
  }

  get microseconds() {
    return (this.us - this.days * US_PER_DAY) % 1000000n;
  }

  neg() {
    return new Timedelta(-this.us);
  }

  totalSeconds() {
    return Number(this.us) / 1e6;
  }

  toString() {
    const ss = this.seconds % 60n;
    const mm = (this.seconds / 60n) % 60n;
    const hh = this.seconds / 3600n;
    let s = `${hh}:${String(mm).padStart(2, "0")}:${String(ss).padStart(2, "0")}`;
    if (this.days) s = `${this.days} day${this.days === 1n || this.days === -1n ? "" : "s"}, ${s}`;
    if (this.microseconds) s += `.${String(this.microseconds).padStart(6, "0")}`;
    return s;
  }
}

export class Duration {
  constructor(years, months, tdelta) {
    this.years = years;
    this.months = months;
    this.tdelta = tdelta;
  }

  toString() {
    const params = [];
    if (!this.years.isZero) params.push(`${this.years.truncInt()} years`);
    if (!this.months.isZero) params.push(`${this.months.truncInt()} ${this.months.leOne() ? "month" : "months"}`);
    params.push(String(this.tdelta));
    return params.join(", ");
  }
}

export function parseDuration(text) {
  const g = PERIOD.exec(text).groups;
  const num = (name) => (g[name] === undefined ? "0" : g[name].replace(",", "."));
  const years = new Dec(num("years"));
  const months = new Dec(num("months"));
  const floats = Object.fromEntries(["weeks", "days", "hours", "minutes", "seconds"].map((n) => [n, Number(num(n))]));
  const tdelta = Timedelta.fromFloats(floats);
  if (years.isZero && months.isZero) return g.sign === "-" ? tdelta.neg() : tdelta;
  if (g.sign === "-") return new Duration(years.neg(), months.neg(), tdelta.neg());
  return new Duration(years, months, tdelta);
}

export function durationIsoformat(value) {
  const isDuration = value instanceof Duration;
  const td = isDuration ? value.tdelta : value;
  const negative = isDuration ? value.years.negative || value.months.negative || td.us < 0n : td.us < 0n;
  const ret = [];
  if (isDuration) {
    if (!value.years.isZero) ret.push(`${value.years.abs()}Y`);
    if (!value.months.isZero) ret.push(`${value.months.abs()}M`);
  }
  let usecs = td.us < 0n ? -td.us : td.us;
  const micro = usecs % 1000000n;
  let seconds = usecs / 1000000n;
  const minutes = (seconds / 60n) % 60n;
  const hours = (seconds / 3600n) % 24n;
  const days = seconds / 86400n;
  seconds %= 60n;
  usecs = micro;
  if (days) ret.push(`${days}D`);
  if (hours || minutes || seconds || usecs) {
    ret.push("T");
    if (hours) ret.push(`${hours}H`);
    if (minutes) ret.push(`${minutes}M`);
    if (seconds || usecs) {
      ret.push(usecs ? `${seconds}.${String(usecs).padStart(6, "0")}`.replace(/0+$/, "") : `${seconds}`);
      ret.push("S");
    }
  }
  return `${negative ? "-" : ""}P${ret.length ? ret.join("") : "0D"}`;
}
