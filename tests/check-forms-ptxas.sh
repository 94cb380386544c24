#!/bin/sh
# check-forms-ptxas.sh - check that ptxas accepts every form of tests/isa_forms.txt, wrapped in
# the same kernel as tests/test_isa_forms.c (needs the CUDA toolkit; not part of `make test`).
# Usage: sh tests/check-forms-ptxas.sh   (from the repository root; PTXAS=path overrides)
set -eu
PTXAS=${PTXAS:-ptxas}
FORMS=tests/isa_forms.txt
command -v "$PTXAS" >/dev/null 2>&1 || { echo "check-forms-ptxas: ptxas not found" >&2; exit 1; }
[ -f "$FORMS" ] || { echo "check-forms-ptxas: run from the repository root" >&2; exit 1; }
TMP=${TMPDIR:-/tmp}/check-forms.$$
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT INT TERM
sed -n 's/^>m //p' "$FORMS" > "$TMP/mod"
sed -n 's/^>k //p' "$FORMS" > "$TMP/decl"
n=0 bad=0 line=0
while IFS= read -r form; do
    line=$((line + 1))
    case "$form" in ''|'#'*|'>'*) continue ;; esac
    n=$((n + 1))
    {
        printf '.version 8.7\n.target sm_90a\n.address_size 64\n'
        cat "$TMP/mod"
        printf '.visible .entry isa_forms(.param .u64 kp)\n{\n'
        cat "$TMP/decl"
        printf ' %s\nL1:\n ret;\n}\n' "$form"
    } > "$TMP/f.ptx"
    if ! "$PTXAS" -arch=sm_90a "$TMP/f.ptx" -o /dev/null > "$TMP/out" 2>&1; then
        bad=$((bad + 1))
        echo "$FORMS:$line: $form: $(grep -m1 error "$TMP/out" || true)"
    fi
done < "$FORMS"
echo "check-forms-ptxas: $n forms, $bad refused by ptxas"
[ "$bad" -eq 0 ]
