#!/usr/bin/env bash
# with_display.sh COMMAND [ARGS...]
# Runs COMMAND with an X display: the caller's DISPLAY if set, else a private
# Xvfb (Debian package xvfb) started for it and stopped after it. Debian's
# ParaView and python3-vtk9 render only through X11.
#
# The display number is chosen here, one whose lock file and socket do not
# exist, and the servers of tests running at the same time are started and
# stopped one at a time (flock): an Xvfb left to probe numbers itself
# (-displayfd alone, or two `xvfb-run -a` at once) can take over the number of
# a server that another test is using.
#
# Xvfb runs with -noreset. Without it the server resets itself whenever its
# last client disconnects, and pvbatch (ParaView 5.11, Debian) connects,
# disconnects and connects again while it starts: on a loaded machine the
# second connection falls into the reset ("bad X server connection", then
# abort). Measured at load average 9-13 on 2 cores: 0 of 6 attempts of
# paraview_view.py succeeded without -noreset (three tests failed all three
# attempts), 8 of 8 with it; on a quiet machine 3 runs in 39 failed. The
# retry below (at most twice, each time on a new server, for that failure
# only; any other failure is the command's) stays as a second line.
set -euo pipefail
if [ -n "${DISPLAY:-}" ]; then
  exec "$@"
fi
if ! command -v Xvfb >/dev/null; then
  echo "with_display.sh: no DISPLAY and no Xvfb: install Debian's xvfb" \
       "(scripts/ensure_dependencies.sh --tests does)" >&2
  exit 1
fi
lock=${TMPDIR:-/tmp}/stickslip-xvfb.lock
work=$(mktemp -d)
server=

stop_server() {
  if [ -n "$server" ]; then
    flock "$lock" bash -c "kill $server 2>/dev/null; while kill -0 $server 2>/dev/null; do sleep 0.05; done"
    server=
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT

start_server() {   # sets number and server
  rm -f "$work/fifo"
  mkfifo "$work/fifo"
  exec 9>>"$lock"
  flock 9
  number=10
  while [ -e "/tmp/.X$number-lock" ] || [ -e "/tmp/.X11-unix/X$number" ]; do
    number=$((number + 1))
  done
  Xvfb ":$number" -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset 3>"$work/fifo" \
    2>"${XVFB_LOG:-/dev/null}" &
  server=$!
  if ! read -r -t 30 ready <"$work/fifo" || [ "$ready" != "$number" ]; then
    echo "with_display.sh: Xvfb :$number did not start within 30 s" >&2
    exit 1
  fi
  flock -u 9
  exec 9>&-
}

for attempt in 1 2 3; do
  start_server
  status=0
  DISPLAY=:$number "$@" 2>"$work/stderr" || status=$?
  cat "$work/stderr" >&2
  stop_server
  if [ $status -eq 0 ] || ! grep -q "bad X server connection" "$work/stderr"; then
    exit $status
  fi
  echo "with_display.sh: attempt $attempt lost its X connection (status $status)" >&2
done
exit $status
