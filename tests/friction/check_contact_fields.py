#!/usr/bin/env python3
"""check_contact_fields.py OUTDIR NAME...

The last record of OUTDIR/contact.pvd (a .pvtu) must declare a point data
array of every NAME (the outputs of a friction law with a state: doc/
cookbook_friction.md). Exit 1 naming the missing ones."""
import os
import re
import sys

out, names = sys.argv[1], sys.argv[2:]
with open(os.path.join(out, "contact.pvd")) as f:
    files = re.findall(r'file="([^"]+)"', f.read())
if not files or not names:
    sys.exit("FAIL: no record in %s/contact.pvd or no name to check" % out)
with open(os.path.join(out, files[-1])) as f:
    declared = set(re.findall(r'Name="([^"]+)"', f.read()))
missing = [n for n in names if n not in declared]
print("%s: %d records, the last declares %s" % (out, len(files), ", ".join(sorted(declared))))
if missing:
    sys.exit("FAIL: %s missing from %s" % (", ".join(missing), files[-1]))
print("OK")
