#!/usr/bin/env python3
"""One BLAS thread per MPI rank (issue 17, "hidden threads").

Runs stickslip once (the arguments after --) and checks the threads line of
its log.txt, which the program fills from what the libraries report after
its own set-up (deal.II's thread limit, openblas_get_num_threads()):

  # 1 MPI rank, 1 thread each (OpenBLAS: 1 thread), host ...

--expect-blas N: OpenBLAS must report N threads (skipped with a notice
when OpenBLAS is not the BLAS in use); --expect-user VARIABLE: the line
must say the user's VARIABLE chose it. The environment is the test's own
(ENVIRONMENT property), so a user's OPENBLAS_NUM_THREADS is passed or not.
"""
import argparse
import os
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output", help="output directory of the run")
    parser.add_argument("--expect-blas", type=int, default=1)
    parser.add_argument("--expect-user", default=None)
    split = sys.argv.index("--")
    args = parser.parse_args(sys.argv[1:split])
    command = sys.argv[split + 1:]
    command += ["--quiet", "--set", "Output/Directory=" + args.output,
                "--set", "Output/Overwrite=true"]
    subprocess.run(command, check=True)
    with open(os.path.join(args.output, "log.txt")) as log:
        header = [line for line in log if line.startswith("# ")][:3]
    line = header[2]
    print("header:", line.strip())
    if not re.search(r"MPI ranks?, 1 thread each", line):
        sys.exit("FAIL: deal.II's thread limit is not 1: " + line)
    blas = re.search(r"OpenBLAS: (\d+) threads?(, set by (\w+))?\)", line)
    if blas is None:
        print("OpenBLAS not in use: only the deal.II limit is checked")
        return
    if int(blas.group(1)) != args.expect_blas:
        sys.exit("FAIL: OpenBLAS reports %s threads, expected %d"
                 % (blas.group(1), args.expect_blas))
    if args.expect_user != blas.group(3):
        sys.exit("FAIL: expected the choice of %s, the line says %s"
                 % (args.expect_user, blas.group(3)))
    print("OK")


if __name__ == "__main__":
    main()
