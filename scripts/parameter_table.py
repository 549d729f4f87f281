#!/usr/bin/env python3
"""parameter_table.py STICKSLIP FILE.md... [--check]

Regenerates the parameter tables of each Markdown FILE (doc/running.md and
the cookbooks doc/cookbook_*.md) between

    <!-- parameter table: Subsection/Name, Name, Other/Name, ... -->
    ...
    <!-- end of parameter table -->

from `STICKSLIP --print-parameters markdown`, the one source of every
parameter's default, allowed values and meaning. A name without a
subsection takes the previous one's. --check writes nothing and exits 1 when
a table is not current (the ctest parameter_tables_current runs it on
every Markdown file of doc/ that has a table).
"""
import argparse
import re
import subprocess
import sys

BEGIN = re.compile(r"<!-- parameter table: (.*?) -->")
END = "<!-- end of parameter table -->"


def documented_parameters(executable):
    """{Subsection/Name: (default, allowed, meaning)} from the markdown."""
    text = subprocess.run([executable, "--print-parameters", "markdown"],
                          check=True, stdout=subprocess.PIPE).stdout.decode()
    parameters, section = {}, None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.startswith("| `") and section is not None:
            # Split on unescaped bars; the cells may contain "\|".
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            name = cells[0].strip("`")
            path = name if section == "Top level" else section + "/" + name
            parameters[path] = (cells[1], cells[2], cells[3])
    return parameters


def allowed_values(pattern):
    """deal.II's pattern description, shortened for a reader."""
    p = pattern.strip("[] ")
    if p.startswith("Selection "):
        return ", ".join("`%s`" % o for o in p[len("Selection "):].split("\\|"))
    if p == "Bool":
        return "`true`, `false`"
    if p == "Anything":
        return "text"
    m = re.match(r"(Integer range|Double) (\S+)\.\.\.(\S+) \(inclusive\)", p)
    if m:
        kind = "integer" if m.group(1) == "Integer range" else "number"
        low, high = m.group(2), m.group(3)
        unbounded_low = low in ("-MAX_DOUBLE", "-2147483648")
        unbounded_high = high in ("MAX_DOUBLE", "2147483647")
        if unbounded_low and unbounded_high:
            return kind
        if unbounded_high:
            return "%s ≥ %s" % (kind, low)
        if unbounded_low:
            return "%s ≤ %s" % (kind, high)
        return "%s in [%s, %s]" % (kind, low, high)
    return p


def table(names, parameters):
    rows = ["| parameter | default | allowed | meaning |", "|---|---|---|---|"]
    section = None
    for name in (n.strip() for n in names.split(",")):
        if "/" in name:
            section = name.rsplit("/", 1)[0]
            path = name
        else:
            path = name if section is None else section + "/" + name
        if path not in parameters:
            raise SystemExit("parameter_table.py: a table names `%s`, which "
                             "--print-parameters does not document" % path)
        default, allowed, meaning = parameters[path]
        if default == "``":
            default = "(empty)"
        rows.append("| `%s` | %s | %s | %s |"
                    % (path, default, allowed_values(allowed), meaning))
    return rows


def update(path, parameters, check):
    """Regenerates (or with check, compares) the tables of one file; 0 if
    current or written, 1 if check finds a stale table."""
    with open(path, encoding="utf-8") as f:
        current = f.read()
    lines = current.split("\n")
    result, i, tables = [], 0, 0
    while i < len(lines):
        result.append(lines[i])
        begin = BEGIN.fullmatch(lines[i].strip())
        if begin:
            end = next((j for j in range(i + 1, len(lines))
                        if lines[j].strip() == END), None)
            if end is None:
                raise SystemExit("parameter_table.py: a table in %s has no %s"
                                 % (path, END))
            result += table(begin.group(1), parameters)
            result.append(END)
            tables += 1
            i = end
        i += 1
    if tables == 0:
        raise SystemExit("parameter_table.py: no parameter table in " + path)
    text = "\n".join(result)
    if check:
        if text != current:
            print("%s: the parameter tables are not current; run "
                  "python3 scripts/parameter_table.py build/stickslip %s"
                  % (path, path))
            return 1
        print("%s: %d parameter table(s) current" % (path, tables))
        return 0
    if text != current:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    print("%s: %d parameter table(s) written" % (path, tables))
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("executable")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    parameters = documented_parameters(args.executable)
    return max(update(path, parameters, args.check) for path in args.files)


if __name__ == "__main__":
    sys.exit(main())
