"""humanize-numbers: intcomma, intword, apnumber, ordinal, fractional, scientific, metric (humanize 4.9.0)."""

from casekit import SHELL_METAS, SampleDef, arg, c

VALUES = [
    "0.5", "1000000", "-1234.5", "1.3", "0.333", "2.71828", "1e3", "12345678901234567890", "999950000",
    "1_000_000", " 42 ", "inf", "-Infinity", "nan", "abc", "", "   ", "١٢٣٤٥", "0", "-0.0", "1,234",
    "1.5e-7", "6.02214076e23", "1e40", "1e-35", "0.001234", "-7", "11", "112", "-12", "1.9999999", "1e100",
    "1.125", "0.0625", "123456.789", "-0.75", "7.0", "1" + "0" * 40,
]
CASES = [
    c("--value", "1234567", desc="basic: a big integer"),
    c("--value", "3", desc="basic: a small integer"),
    c("--value", "1.5", "--unit", "m", desc="basic: a float with a unit"),
    c("--value", "2500", "--unit", "V", desc="basic: thousands with a unit"),
    *[c("--value", v, desc="value through every function") for v in VALUES],
    c("--value", "0.000045", "--unit", "°", desc="no space before the degree sign"),
    c("--value", "123000", "--unit", "Hz", desc="metric kilo"),
    c(desc="error: --value missing"),
    *[c("--value", s, desc="shell metacharacters") for s in SHELL_METAS[:4]],
    c("--value", "1", "--units", "m", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = SampleDef(
    id="humanize-numbers",
    requirements=["humanize==4.9.0"],
    program="humanize_numbers.py",
    entry="humanize_numbers.mjs",
    category="math/numbers",
    api=[
        "humanize.intcomma",
        "humanize.intword",
        "humanize.apnumber",
        "humanize.ordinal",
        "humanize.fractional",
        "humanize.scientific",
        "humanize.metric",
    ],
    args=[
        arg("value", "str", "the number, as text (Python float()/int() syntax)", required=True),
        arg("unit", "str", "unit for metric(), e.g. m, V, °"),
    ],
    cases=CASES,
)
