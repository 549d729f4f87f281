"""Shared pieces of the peer scripts: the data of prm/string.prm and the
result line every script prints.

The frictional string of doc/theory.md §2.1 (Glowinski et al. 2006, eq. (23)):
  (1/c^2) u_tt - u_xx + g lambda = f on (0, 1),  lambda in Sgn(u_t),
  u(0) = u(1) = 0,  u(x, 0) = sin(pi x),  u_t(x, 0) = 0,
with c = 1, g = 2, f = 0 and final time 4 (prm/string.prm).
"""

import json
import sys

import numpy as np

WAVE_SPEED = 1.0
FRICTION = 2.0
LENGTH = 1.0
FINAL_TIME = 4.0


def initial_displacement(x):
    return np.sin(np.pi * x)


def write_result(path, name, scheme, cells, steps, dt, x, u, v, loop_seconds,
                 setup_seconds, extra=None):
    """Writes the final nodal u, v (all nodes, boundary included) and the
    timings as JSON, the format bench/peers/compare.py reads."""
    result = {"name": name, "scheme": scheme, "cells": cells,
              "unknowns": cells - 1, "steps": steps, "dt": dt,
              "loop_seconds": loop_seconds, "setup_seconds": setup_seconds,
              "x": list(map(float, x)), "u": list(map(float, u)),
              "v": list(map(float, v))}
    if extra:
        result.update(extra)
    with open(path, "w") as f:
        json.dump(result, f)
    print(f"{name}: {cells} cells, {steps} steps of {dt:.6g}, set-up "
          f"{setup_seconds:.3f} s, loop {loop_seconds:.3f} s", file=sys.stderr)
