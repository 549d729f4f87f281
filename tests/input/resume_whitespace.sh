#!/usr/bin/env bash
# resume_whitespace.sh EXE P3.prm OUTDIR
# --resume compares expressions without the spaces that separate nothing: a
# run of P3 (its snapshots kept when it finishes) is taken further with its
# forcing written with other spaces (accepted), then with a product
# reordered (refused: another expression, even if equal in value).
set -u
exe=$1; prm=$2; out=$3
rm -rf "$out"; mkdir -p "$out"
common=(--quiet --set "Time/Convergence time steps=")
"$exe" "$prm" "${common[@]}" --set "Time/Final time=0.5" --set "Output/Checkpoint interval=0.25" \
  --set "Output/Directory=$out/run" --set "ODE/Forcing=t<1 ? 2*t : 1; 0" \
  || { echo "FAIL: the first run failed"; exit 1; }
"$exe" "$prm" "${common[@]}" --set "Time/Final time=0.75" --resume "$out/run" \
  --set "ODE/Forcing=t<1?2*t  :1;0" \
  || { echo "FAIL: the forcing with other spaces was refused"; exit 1; }
echo "resumed with the forcing written with other spaces"
if "$exe" "$prm" "${common[@]}" --set "Time/Final time=1" --resume "$out/run" \
     --set "ODE/Forcing=t<1 ? t*2 : 1; 0" 2> "$out/refused.txt"; then
  echo "FAIL: t*2 was taken for 2*t"; exit 1
fi
cat "$out/refused.txt"
# (the resumed run rewrote parameters.prm with its own spelling)
grep -Eq "parameter 'ODE/Forcing' is 't<1 \? t\*2 : 1; 0'.* but was 't<1 ?\? ?2\*t +: ?1; ?0'" "$out/refused.txt" \
  || { echo "FAIL: the refusal does not name both forcings"; exit 1; }
echo PASS
