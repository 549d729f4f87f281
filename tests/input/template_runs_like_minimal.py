#!/usr/bin/env python3
"""The parameter template of every model runs what a minimal file runs.

For every model that `stickslip --help` lists, the template written by
`stickslip --print-parameters --model NAME` and a file that sets only Model
(and the Dimension the template sets) are run with the same --set options:
both must finish without a warning, print the same scheme line (or, for a
model without one, the same first line), and write the same history.csv,
byte for byte. The template sets every parameter the model reads to its
default and leaves unset what the model chooses itself, so anything else
is a trap: a template that silently runs another scheme (P = 10, Q = 2,
alpha = 1/4, semismooth Newton for the lumped string) than the examples.
For a model that chooses defaults, the JSON template (--print-parameters
json --model NAME, which leaves those entries out) is run too.

usage: template_runs_like_minimal.py EXE OUTDIR [--set PATH=VALUE]...
           [--set-for MODEL PATH=VALUE]...
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def models(exe):
    """The model names of `stickslip --help` (the lines after 'models')."""
    text = subprocess.run([exe, "--help"], capture_output=True, text=True,
                          check=True).stdout
    names, inside = [], False
    for line in text.splitlines():
        if line.startswith("models"):
            inside = True
        elif inside and line.startswith("  "):
            names.append(line.split()[0])
        elif inside:
            break
    return names


def run(exe, prm, outdir, settings):
    """Run stickslip on prm into outdir: (status, screen output, history)."""
    command = [exe, prm, "--set", "Output/Directory=" + outdir,
               "--set", "Output/Overwrite=true"]
    for setting in settings:
        command += ["--set", setting]
    done = subprocess.run(command, capture_output=True, text=True)
    history = None
    path = os.path.join(outdir, "history.csv")
    if os.path.exists(path):
        with open(path, "rb") as f:
            history = f.read()
    return done.returncode, done.stdout + done.stderr, history


def scheme_line(screen):
    """The line that names the scheme (else the model's first line)."""
    lines = screen.splitlines()
    for line in lines:
        if line.strip().startswith("scheme:"):
            return line.strip()
    return lines[0] if lines else ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("exe")
    parser.add_argument("outdir")
    parser.add_argument("--set", action="append", default=[], dest="settings")
    parser.add_argument("--set-for", nargs=2, action="append", default=[],
                        metavar=("MODEL", "SETTING"))
    a = parser.parse_args()
    shutil.rmtree(a.outdir, ignore_errors=True)
    os.makedirs(a.outdir)
    names = models(a.exe)
    if not names:
        print("FAIL: stickslip --help lists no models")
        return 1
    failures = 0
    for name in names:
        folder = os.path.join(a.outdir, name)
        os.makedirs(folder)
        template = subprocess.run(
            [a.exe, "--print-parameters", "--model", name],
            capture_output=True, text=True, check=True).stdout
        dimension = re.search(r"^set Dimension\s*=\s*(\d+)", template, re.M)
        minimal = "set Model = %s\n" % name
        if dimension:
            minimal += "set Dimension = %s\n" % dimension.group(1)
        files = {"template": template, "minimal": minimal}
        if "Left unset" in template:
            files["template.json"] = subprocess.run(
                [a.exe, "--print-parameters", "json", "--model", name],
                capture_output=True, text=True, check=True).stdout
        settings = a.settings + [s for m, s in a.set_for if m == name]
        results = {}
        for kind, text in files.items():
            prm = os.path.join(folder, kind if "." in kind else kind + ".prm")
            with open(prm, "w") as f:
                f.write(text)
            results[kind] = run(a.exe, prm,
                                os.path.join(folder, kind.replace(".", "_")),
                                settings)
        problems = []
        for kind, (status, screen, history) in results.items():
            if status != 0:
                problems.append("%s: exit status %d: %s" % (
                    kind, status, screen.strip()[-400:]))
            elif "warning" in screen:
                problems.append("%s warns: %s" % (kind, [
                    l for l in screen.splitlines() if "warning" in l]))
        m = results["minimal"]
        for kind, t in results.items():
            if problems or kind == "minimal":
                continue
            if scheme_line(t[1]) != scheme_line(m[1]):
                problems.append("schemes differ: %s '%s', minimal '%s'" % (
                    kind, scheme_line(t[1]), scheme_line(m[1])))
            if t[2] is None or t[2] != m[2]:
                problems.append(kind + ": history.csv differs (or is missing)")
        print("%-8s %s%s" % (name, "FAIL" if problems else "ok",
                             "" if problems else " (%s): %s" % (
                                 ", ".join(results), scheme_line(m[1]))))
        for problem in problems:
            print("    " + problem)
        failures += bool(problems)
    print("%d of %d models: the template runs like the minimal file"
          % (len(names) - failures, len(names)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
