#!/usr/bin/env python3
"""The model registry is the one list of the models (doc/developers.md).

A model is known to stickslip through its entry in registered_models()
(src/drivers/model_registry.cc) and nowhere else. In src/:
  - there is no ModelKind (the enum the registry replaced);
  - the entry Model is read in one place: get("Model") in model_registry.cc;
  - every function of registered_models()'s list makes one entry, and each
    entry names its model once (name = "...");
  - outside src/models/ (where a model may say its own name on screen), a
    model's quoted name appears only in its entry: no comparison with a
    model name and no written-out selection "ode|gearbox|...".

usage: check_one_model_list.py SRC
"""
import os
import re
import sys


def sources(root):
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith((".cc", ".h")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    yield os.path.relpath(path, root), f.read()


def main():
    root = sys.argv[1]
    files = dict(sources(root))
    problems = []
    for path, text in files.items():
        if "ModelKind" in text:
            problems.append("%s: ModelKind (the registry replaced it)" % path)
    readers = [p for p, t in files.items() for _ in re.finditer(
        r'get\(\s*"Model"\s*\)', t)]
    if readers != ["drivers/model_registry.cc"]:
        problems.append('get("Model") must appear once, in '
                        'drivers/model_registry.cc; found in %s' % readers)
    registry = files.get("drivers/model_registry.cc", "")
    match = re.search(r"registered_models\(\)\s*\{(.*?)return", registry, re.S)
    listed = re.findall(r"(\w+)\(\)", match.group(1)) if match else []
    if not listed:
        problems.append("no list of entries in registered_models()")
    entries = {}
    for path, text in files.items():
        for function in re.findall(r"ModelEntry\s+(\w+)\(\)\s*\{", text):
            entries[function] = path
    for function in listed:
        if function not in entries:
            problems.append("registered_models() lists %s(), which is not "
                            "defined as 'ModelEntry %s()'" % (function, function))
    for function, path in entries.items():
        if function not in listed:
            problems.append("%s: %s() makes an entry that registered_models() "
                            "does not list" % (path, function))
    names = []
    for path, text in files.items():
        names += re.findall(r'\.name\s*=\s*"([^"]+)"', text)
    if len(names) != len(listed) or len(set(names)) != len(names):
        problems.append("%d entries list %d models named %s: one name each"
                        % (len(listed), len(names), names))
    for path, text in files.items():
        if path.startswith("models" + os.sep):
            continue
        for name in names:
            quoted = len(re.findall(r'"%s"' % re.escape(name), text))
            named = len(re.findall(r'\.name\s*=\s*"%s"' % re.escape(name), text))
            if quoted > named:
                problems.append('%s: "%s" outside its entry (a comparison '
                                'with a model name?)' % (path, name))
            if re.search(r'"[^"\n]*\b%s\|' % re.escape(name), text):
                problems.append('%s: a selection of model names written out '
                                '(registered_models() makes it)' % path)
    for problem in problems:
        print("FAIL: " + problem)
    if not problems:
        print("ok: %d models, one list (%s)" % (len(names), ", ".join(names)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
