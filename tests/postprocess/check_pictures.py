#!/usr/bin/env python3
"""check_pictures.py SRC --list
   check_pictures.py SRC --draw NAME.png --exe STICKSLIP --work DIR [--tolerance F]

The pictures of doc/ are what their documented commands draw (doc/pictures.md).

doc/pictures.md has a section "## NAME.png" for each picture, whose first
```sh block is the commands that make it from the repository's top folder:
the runs (build/stickslip prm/...; they write output/<example>) and the
script that draws output/pictures/NAME.png (a benchmark writes doc/NAME.png
itself).

--list fails when a picture of doc/ has no section, a section names no
picture of doc/, a picture is shown on no page (README.md, doc/*.md but
pictures.md, postprocess/README.md), or a section's commands do not write
the picture, or call a file of the repository that does not exist.

--draw runs the commands of NAME.png's section in DIR, a scratch folder in
which prm/, meshes/, postprocess/, tests/ and bench/ are the repository's and
build/ is the folder of STICKSLIP (so the commands run as written), then
compares DIR/output/pictures/NAME.png with doc/NAME.png: the same size, and
at most the fraction F of the pixels (default 0.005) different (a pixel
differs when a colour channel differs by more than 16 of 255: anti-aliasing
at the same place is not a difference). The tolerance of each picture's
test is set beside it in tests/postprocess/postprocess.cmake with the
fraction measured. --redraw (with --draw) copies the drawn picture over
doc/NAME.png instead of comparing: the deliberate act of redrawing it. Exit
0 if all holds, 1 otherwise, 2 on bad usage.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

LINKED = ("prm", "meshes", "postprocess", "tests", "bench")
CHANNEL_NOISE = 16   # of 255: anti-aliasing of the same curve


def sections(src):
    """{picture: commands (the text of its first sh block)} of doc/pictures.md."""
    with open(os.path.join(src, "doc", "pictures.md")) as f:
        text = f.read()
    found = {}
    parts = re.split(r"^## (\S+\.png)\s*$", text, flags=re.M)
    for name, body in zip(parts[1::2], parts[2::2]):
        block = re.search(r"^```sh\n(.*?)^```", body, re.M | re.S)
        found[name] = block.group(1) if block else None
    return found


def shown_pictures(src):
    """The picture names shown or linked on the pages (not doc/pictures.md)."""
    pages = [os.path.join(src, "README.md"), os.path.join(src, "postprocess", "README.md")]
    pages += [os.path.join(src, "doc", p) for p in os.listdir(os.path.join(src, "doc"))
              if p.endswith(".md") and p != "pictures.md"]
    shown = set()
    for page in pages:
        with open(page) as f:
            shown.update(re.findall(r"([\w.-]+\.png)\)", f.read()))
    return shown


def list_problems(src):
    pictures = sorted(p for p in os.listdir(os.path.join(src, "doc")) if p.endswith(".png"))
    listed = sections(src)
    shown = shown_pictures(src)
    problems = []
    for picture in pictures:
        if picture not in listed:
            problems.append("doc/%s has no section in doc/pictures.md" % picture)
        if picture not in shown:
            problems.append("doc/%s is shown on no page" % picture)
    for picture, commands in listed.items():
        if picture not in pictures:
            problems.append("doc/pictures.md: %s is not a picture of doc/" % picture)
            continue
        if commands is None:
            problems.append("doc/pictures.md: %s has no ```sh block of commands" % picture)
            continue
        if "output/pictures/" + picture not in commands and "doc/" + picture not in commands:
            problems.append("doc/pictures.md: the commands of %s do not write it "
                            "(output/pictures/%s)" % (picture, picture))
        for path in re.findall(r"(?<![\w/.-])((?:prm|postprocess|tests|bench|meshes)/[\w./-]+)",
                               commands):
            if not os.path.exists(os.path.join(src, path)):
                problems.append("doc/pictures.md: the commands of %s call %s, which does not "
                                "exist" % (picture, path))
    return problems, len(pictures)


def pixels(path):
    """(width, height, rows of RGB bytes) of a PNG (Pillow)."""
    from PIL import Image
    image = Image.open(path).convert("RGB")
    return image.size[0], image.size[1], image.tobytes()


def difference(drawn, committed):
    """The fraction of pixels that differ (None: the sizes differ)."""
    width, height, a = pixels(drawn)
    width_b, height_b, b = pixels(committed)
    if (width, height) != (width_b, height_b):
        return None, (width, height), (width_b, height_b)
    import numpy as np
    x = np.frombuffer(a, dtype=np.uint8).reshape(height, width, 3).astype(np.int16)
    y = np.frombuffer(b, dtype=np.uint8).reshape(height, width, 3).astype(np.int16)
    differs = (np.abs(x - y) > CHANNEL_NOISE).any(axis=2)
    return float(differs.mean()), (width, height), (width, height)


def draw(src, picture, exe, work, tolerance, redraw=False):
    commands = sections(src).get(picture)
    if commands is None:
        print("FAIL: doc/pictures.md has no commands for %s" % picture)
        return 1
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    for name in LINKED:
        os.symlink(os.path.join(src, name), os.path.join(work, name))
    os.symlink(os.path.dirname(os.path.abspath(exe)), os.path.join(work, "build"))
    print("running in %s:\n%s" % (work, commands))
    done = subprocess.run(["bash", "-e", "-c", commands], cwd=work)
    if done.returncode != 0:
        print("FAIL: the commands of %s stopped with status %d" % (picture, done.returncode))
        return 1
    drawn = os.path.join(work, "output", "pictures", picture)
    if not os.path.isfile(drawn):
        print("FAIL: the commands did not write output/pictures/%s" % picture)
        return 1
    if redraw:
        shutil.copyfile(drawn, os.path.join(src, "doc", picture))
        print("redrawn: doc/%s" % picture)
        return 0
    share, size, committed_size = difference(drawn, os.path.join(src, "doc", picture))
    if share is None:
        print("FAIL: %s drawn %dx%d, doc/%s is %dx%d" % (picture, size[0], size[1], picture,
                                                        committed_size[0], committed_size[1]))
        return 1
    print("%s: %.4f%% of the %dx%d pixels differ from doc/%s (tolerance %.4f%%)"
          % (picture, 100 * share, size[0], size[1], picture, 100 * tolerance))
    if share > tolerance:
        print("FAIL: doc/%s is not what its commands draw (redraw it with them and commit "
              "it, or fix the commands in doc/pictures.md)" % picture)
        return 1
    print("PASS")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("src")
    p.add_argument("--list", action="store_true")
    p.add_argument("--draw", metavar="NAME.png")
    p.add_argument("--exe")
    p.add_argument("--work")
    p.add_argument("--tolerance", type=float, default=0.005)
    p.add_argument("--redraw", action="store_true")
    a = p.parse_args()
    if a.list == bool(a.draw) or (a.draw and not (a.exe and a.work)):
        p.print_usage()
        return 2
    if a.draw:
        return draw(os.path.abspath(a.src), a.draw, a.exe, os.path.abspath(a.work), a.tolerance,
                    a.redraw)
    problems, count = list_problems(a.src)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print("OK: the %d pictures of doc/ are listed in doc/pictures.md with their commands, "
          "and shown on a page" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
