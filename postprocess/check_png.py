#!/usr/bin/python3
"""Check PNG files (standard library only; used by a ctest).

Usage: check_png.py [--min-size N] FILE.png...

Each file must exist, start with the 8-byte PNG signature, have an IHDR chunk
first, and be at least N x N pixels (default 200).  Prints one line per file;
exits 1 if any file fails (2 on bad usage), 0 otherwise.
"""
import struct
import sys

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def check(path, min_size):
    """Return None if the file is fine, otherwise a reason string."""
    try:
        with open(path, "rb") as f:
            head = f.read(33)  # signature (8) + length (4) + 'IHDR' (4) + 13 data + CRC (4)
    except OSError as e:
        return f"cannot read: {e.strerror or e}"
    if head[:8] != SIGNATURE:
        return "not a PNG (bad signature)"
    if len(head) < 33:
        return "truncated (no complete IHDR chunk)"
    length, ctype = struct.unpack(">I4s", head[8:16])
    if ctype != b"IHDR" or length != 13:
        return "first chunk is not a valid IHDR"
    width, height = struct.unpack(">II", head[16:24])
    if width < min_size or height < min_size:
        return f"too small: {width}x{height} (need >= {min_size}x{min_size})"
    return None


def main(argv):
    min_size = 200
    files = []
    it = iter(argv)
    for a in it:
        if a == "--min-size":
            try:
                min_size = int(next(it))
            except (StopIteration, ValueError):
                print("check_png: --min-size needs an integer", file=sys.stderr)
                return 2
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            files.append(a)
    if not files:
        print("usage: check_png.py [--min-size N] FILE.png...", file=sys.stderr)
        return 2
    failed = 0
    for p in files:
        why = check(p, min_size)
        if why is None:
            with open(p, "rb") as f:
                w, h = struct.unpack(">II", f.read(24)[16:24])
            print(f"OK   {p} ({w}x{h})")
        else:
            print(f"FAIL {p}: {why}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
