"""date-calendar: a calendar command script (month/year arithmetic, nth/last weekday, ISO weeks; date 3.0.1)."""

from ckit import SHELL_METAS, CSampleDef, c


def script(*lines: str, end: str = "\n") -> str:
    return "\n".join(lines) + end


ISO_EDGES = [
    f"iso {y}-{m:02d}-{d:02d}"
    for y in (2004, 2008, 2009, 2010, 2020, 2021)
    for m, d in ((1, 1), (1, 4), (12, 28), (12, 31))
]
EVERY_MONTH = [f"nth 2024-{m:02d} {wd} 5" for m in range(1, 13) for wd in ("Sun", "Wed", "Fri")]
HUGE = [f"add-days 2000-01-01 {n * 997}" for n in range(-150, 150)] + [
    f"doy 2023-{m:02d}-15" for m in range(1, 13)
]

CASES = [
    c(
        stdin=script(
            "weekday 2024-02-29",
            "add-days 2024-02-29 365",
            "add-months 2024-01-31 1",
            "normalize 2024-02-31",
            "last 2024-02",
        ),
        desc="basic: arithmetic, invalid result, normalisation, last day",
    ),
    c(
        stdin=script(
            "nth 2024-05 Mon 2",
            "nth 2024-02 Fri 5",
            "last-weekday 2024-05 Mon",
            "weekday-diff Sun Mon",
            "clamp 2023-02-30",
        ),
        desc="basic: nth and last weekdays, clamping",
    ),
    c(
        stdin=script(
            "iso 2024-12-30", "iso 2021-01-03", "doy 2024-12-31", "leap 1900", "diff 2024-01-01 2023-01-01"
        ),
        desc="basic: ISO weeks, day of year, leap year, difference",
    ),
    c(
        stdin=script(
            "# a comment", "", "bogus 1", "weekday 2023-02-29", "add-days 2024-01-01", "last 2024-13"
        ),
        desc="basic: comments, blank lines and errors",
    ),
    c(
        stdin=script("nth 2024-02 Thu 5", "nth 2023-12 Sun 5", "nth 2024-03 Sun 5", "nth 2024-03 Sat 5"),
        desc="a fifth weekday on the last day of the month",
    ),
    c(stdin=script(*EVERY_MONTH), desc="fifth Sunday, Wednesday and Friday of every month of 2024"),
    c(stdin=script(*ISO_EDGES), desc="ISO weeks around the turn of the year (53-week years)"),
    c(
        stdin=script(
            "iso -44-03-15",
            "iso 5-01-01",
            "iso 0-01-01",
            "iso -32766-01-01",
            "iso 32766-12-31",
            "iso 32767-06-01",
            "iso -32767-06-01",
        ),
        desc="ISO week years padded to four digits, range ends rejected",
    ),
    c(
        stdin=script(
            "add-months 2024-03-31 -1",
            "add-months 2024-01-15 -13",
            "add-months 2024-12-31 2",
            "add-years 2024-02-29 1",
            "add-years 2024-02-29 4",
            "add-years 2024-02-29 -2024",
            "add-months 0-01-31 -1",
        ),
        desc="month and year arithmetic, negative steps",
    ),
    c(
        stdin=script(
            "add-months 32767-12-01 1",
            "add-years -32767-01-01 -1",
            "add-months 2024-01-01 999999999",
            "add-months 2024-01-01 1000000000",
            "add-days 32767-12-31 1",
            "add-days -32767-01-01 -1",
        ),
        desc="results past the representable years",
    ),
    c(
        stdin=script(
            "normalize 2024-03-00",
            "normalize 2024-01-00",
            "normalize 2023-02-99",
            "normalize 2024-12-32",
            "clamp 2024-04-31",
            "clamp 2024-02-00",
            "clamp 2024-06-15",
        ),
        desc="day zero and overflowing days",
    ),
    c(
        stdin=script(
            "diff 2024-03-01 2024-02-28",
            "diff -1-12-31 0-01-01",
            "diff -32767-01-01 32767-12-31",
            "diff 1970-01-01 1970-01-01",
        ),
        desc="differences, negative years, extremes",
    ),
    c(
        stdin=script(
            "leap 2000",
            "leap 2100",
            "leap 0",
            "leap -4",
            "leap -100",
            "leap -400",
            "leap 32767",
            "leap 32768",
            "leap +2024",
            "leap 2024.0",
        ),
        desc="leap years, signed and malformed",
    ),
    c(
        stdin=script(
            "weekday-diff Mon Sun",
            "weekday-diff Sat Sat",
            "weekday-diff Sun Sat",
            "weekday-diff mon Sun",
            "weekday-diff Monday Sun",
            "nth 2024-06 Sat 0",
            "nth 2024-06 Sat 6",
            "nth 2024-06 Sat -1",
        ),
        desc="weekday names are exact, index 1..5",
    ),
    c(stdin="", desc="empty script"),
    c(stdin="\n\n   \n\t\n", desc="whitespace-only lines print nothing"),
    c(stdin=script(*HUGE), desc="a long script"),
    c(
        stdin="weekday\t2024-01-01\x0b\n\x0cleap 2000\r\nlast  2024-02   \n",
        desc="tabs, vertical tab, form feed and CRLF separate words",
    ),
    c(stdin="weekday 2024-01-01", desc="last line without a newline"),
    c(
        stdin=script(
            "weekday ２０２４-01-01", "nth 2024-05 Пн 1", "日付 2024-01-01", "weekday 2024-01-01\u00a0"
        ),
        desc="Unicode digits, names and no-break space are not accepted",
    ),
    c(
        stdin=script(
            "weekday 2024-1-1",
            "weekday 2024-001-01",
            "weekday 2024-01-001",
            "weekday 1234567-01-01",
            "weekday -2024-01-01",
            "weekday 2024/01/01",
            "weekday 2024-01-01-",
        ),
        desc="malformed dates",
    ),
    c(
        stdin=script(
            "last -1-02",
            "last 0-02",
            "last 2023-02",
            "last 2024-12",
            "last-weekday -32767-01 Thu",
            "last-weekday 32767-12 Fri",
        ),
        desc="last days and last weekdays at the ends of the range",
    ),
    c(
        stdin=script(
            "add-days 2024-01-01 +10",
            "add-days 2024-01-01 -0",
            "add-days 2024-01-01 999999999",
            "add-days 2024-01-01 1e3",
            "add-days 2024-01-01 0x10",
        ),
        desc="signed, huge and malformed day counts",
    ),
    c(
        stdin=script("doy 2024-03-01", "doy 2023-03-01", "doy -1-12-31", "doy 0-12-31"),
        desc="day of year in leap and common years",
    ),
    c(stdin=script(*[f"weekday {s}" for s in SHELL_METAS[:7]]), desc="shell metacharacters as dates"),
    c(stdin=script("#only comments", "  # indented comment", "#weekday 2024-01-01"), desc="comments only"),
    c(
        stdin=script("weekday 2024-01-01 2024-01-02", "diff 2024-01-01", "nth 2024-01 Mon", "last"),
        desc="argument counts",
    ),
    c("--verbose", "1", stdin="weekday 2024-01-01\n", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = CSampleDef(
    id="date-calendar",
    package="libhowardhinnant-date-dev",
    language="cpp",
    program="date_calendar.cpp",
    category="date/time",
    api=[
        "date::year_month_day",
        "date::sys_days",
        "date::weekday",
        "date::months/years arithmetic",
        "date::year_month",
        "date::year_month_day_last",
        "date::year_month_weekday",
        "date::year_month_weekday_last",
        "date::year::is_leap",
        "date::weekday difference",
        "iso_week::year_weeknum_weekday",
    ],
    args=[],
    stdin="required",
    reach_files=["/usr/include/date/date.h", "/usr/include/date/iso_week.h"],
    cases=CASES,
)
