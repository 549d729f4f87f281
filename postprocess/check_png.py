#!/usr/bin/python3
"""Check PNG files (used by every picture test).

Usage: check_png.py [--min-size N] [--header-only] FILE.png...

Each file must exist, start with the 8-byte PNG signature, have an IHDR chunk
first, and be at least N x N pixels (default 200).  Then (unless
--header-only) the pixels are decoded and the picture must hold something: at
least 1% of its pixels differ from the most common colour (the background) and
it has at least 8 distinct colours (a blank render has one; a lone title has a
few anti-aliasing greys but covers less than 1%).  The pixels are decoded by
Pillow (Debian python3-pil, which matplotlib needs) when this Python has it,
else by the standard library alone (8-bit grey, RGB, RGBA or palette, not
interlaced: what matplotlib, VTK and ParaView write; about 2 s per million
pixels).  --not-blank, the default, is accepted as before.  Prints one line
per file; exits 1 if any file fails (2 on bad usage), 0 otherwise.
"""
import struct
import sys
import zlib
from collections import Counter

MIN_INK = 0.01       # fraction of pixels off the background colour
MIN_COLOURS = 8      # distinct colours

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


def decode_rows(path):
    """(width, height, bytes per pixel, list of unfiltered rows) of an 8-bit PNG."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, ihdr = 8, [], None
    while pos + 8 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", chunk)
        elif ctype == b"IDAT":
            idat.append(chunk)
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = ihdr
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour)   # 3: palette indices
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"cannot decode (bit depth {depth}, colour type {colour}, "
                         f"interlace {interlace})")
    raw = zlib.decompress(b"".join(idat))
    bpp, stride = channels, width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        unfilter(kind, line, previous, bpp)
        rows.append(bytes(line))
        previous = line
    return width, height, bpp, rows


def unfilter(kind, line, previous, bpp):
    """Undo one PNG row filter in place (PNG specification, section 9)."""
    n = len(line)
    if kind == 1:                                    # Sub
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif kind == 2:                                  # Up
        line[:] = bytes((x + y) & 255 for x, y in zip(line, previous))
    elif kind == 3:                                  # Average
        for i in range(n):
            a = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((a + previous[i]) >> 1)) & 255
    elif kind == 4:                                  # Paeth
        for i in range(min(bpp, n)):                 # a = c = 0: the predictor is b
            line[i] = (line[i] + previous[i]) & 255
        for i in range(bpp, n):
            a, b, c = line[i - bpp], previous[i], previous[i - bpp]
            pa, pb = b - c, a - c                    # |p - a|, |p - b| with p = a + b - c
            pc = pa + pb                             # |p - c|
            if pa < 0:
                pa = -pa
            if pb < 0:
                pb = -pb
            if pc < 0:
                pc = -pc
            if pa <= pb and pa <= pc:
                line[i] = (line[i] + a) & 255
            elif pb <= pc:
                line[i] = (line[i] + b) & 255
            else:
                line[i] = (line[i] + c) & 255


def colour_counts(path):
    """(number of pixels, [count of each distinct colour])."""
    try:
        from PIL import Image
    except ImportError:
        Image = None
    if Image is not None:
        with Image.open(path) as image:
            rgba = image.convert("RGBA")
            return rgba.width * rgba.height, [n for n, _ in rgba.getcolors(
                maxcolors=rgba.width * rgba.height)]
    width, height, bpp, rows = decode_rows(path)
    counts = Counter()
    for line in rows:
        counts.update(line[i:i + bpp] for i in range(0, len(line), bpp))
    return width * height, list(counts.values())


def check_not_blank(path):
    """None if the picture has content, otherwise a reason string."""
    try:
        n_pixels, counts = colour_counts(path)
    except (ValueError, zlib.error, TypeError, struct.error, OSError) as e:
        return f"cannot decode the pixels: {e}"
    ink = 1.0 - max(counts) / n_pixels
    if ink < MIN_INK or len(counts) < MIN_COLOURS:
        return (f"blank: {100 * ink:.2f}% of the pixels off the background colour, "
                f"{len(counts)} colours (need >= {100 * MIN_INK:g}% and >= {MIN_COLOURS})")
    return None


def main(argv):
    min_size = 200
    not_blank = True
    files = []
    it = iter(argv)
    for a in it:
        if a == "--min-size":
            try:
                min_size = int(next(it))
            except (StopIteration, ValueError):
                print("check_png: --min-size needs an integer", file=sys.stderr)
                return 2
        elif a == "--not-blank":
            not_blank = True
        elif a == "--header-only":
            not_blank = False
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            files.append(a)
    if not files:
        print("usage: check_png.py [--min-size N] [--header-only] FILE.png...", file=sys.stderr)
        return 2
    failed = 0
    for p in files:
        why = check(p, min_size)
        if why is None and not_blank:
            why = check_not_blank(p)
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
