#!/usr/bin/env bash
# The C++ layout check (.clang-format, clang-format-16), as a ratchet: the tree was written
# by hand before .clang-format existed, and a mass reformat would collide with every open
# branch, so files come under the check one at a time.
#   1. Every C++ file (git ls-files, untracked ones too) that is not listed in
#      tests/format/unformatted.txt must be formatted: a new file starts clean.
#   2. A listed file that is formatted (or gone) must leave the list, so the list only shrinks.
#   3. In a developer checkout, the lines changed since the branch left main (the merge-base
#      of HEAD and origin/main, else main; uncommitted changes included) must be formatted in
#      listed files too: `git clang-format-16 --binary clang-format-16 <base>` fixes exactly those lines.
# CI checks out main with no base branch: there the merge-base is HEAD itself, so step 3
# checks only uncommitted changes (none), and steps 1-2 are the whole check; both are the
# same on every checkout, so CI and a developer see the same verdict on the same tree.
#   scripts/check-format.sh                 check (exit 1 on a finding, with how to fix it)
#   scripts/check-format.sh --fix FILE...   format FILEs in place and drop them from the list
#   scripts/check-format.sh --update        rewrite the list: every file not formatted now
#   --root DIR                              check the tree at DIR (the tests' temp trees)
#   --base REF                              step 3 against REF instead of the merge-base
# CLANG_FORMAT names the binary (default clang-format-16; Debian 12: package clang-format-16).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mode=check
base=""
fix_files=()
while (($#)); do
  case $1 in
    --root) root=$2; shift 2 ;;
    --base) base=$2; shift 2 ;;
    --update) mode=update; shift ;;
    --fix) mode=fix; shift; fix_files=("$@"); break ;;
    *) echo "check-format: unknown argument '$1' (see the head of $0)" >&2; exit 2 ;;
  esac
done
clang_format=${CLANG_FORMAT:-clang-format-16}
if ! command -v "$clang_format" >/dev/null; then
  echo "check-format: $clang_format not found (Debian 12: apt-get install clang-format-16; scripts/setup.sh does)" >&2
  exit 2
fi
cd "$root"
list=tests/format/unformatted.txt
is_git=false
if [[ "$(git rev-parse --show-toplevel 2>/dev/null)" == "$(pwd -P)" ]]; then is_git=true; fi

# The C++ files of the tree, one a line, sorted.
cpp_files() {
  if $is_git; then
    git ls-files --cached --others --exclude-standard -- '*.cpp' '*.hpp' '*.h' | sort -u
  else
    find . -path ./build\* -prune -o -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -print |
      sed 's|^\./||' | sort
  fi
}
# Of the files named on stdin, those clang-format would change (one process for them all).
unformatted() {
  local files
  mapfile -t files
  ((${#files[@]})) || return 0
  { "$clang_format" --dry-run -Werror --ferror-limit=1 "${files[@]}" 2>&1 || true; } |
    sed -nE 's/^(.+):[0-9]+:[0-9]+: error: code should be clang-formatted.*/\1/p' | sort -u
}
# The list without its comments and blank lines.
listed() { if [[ -f $list ]]; then grep -vE '^\s*(#|$)' "$list" | sort -u; fi; }

write_list() {
  mkdir -p "$(dirname "$list")"
  {
    echo "# C++ files not yet formatted by .clang-format (scripts/check-format.sh): each leaves the"
    echo "# list when it is formatted (scripts/check-format.sh --fix FILE); none joins it."
    cat
  } >"$list"
}

case $mode in
  update)
    cpp_files | unformatted | write_list
    echo "check-format: $list lists $(listed | wc -l) of $(cpp_files | wc -l) files"
    exit 0 ;;
  fix)
    ((${#fix_files[@]})) || { echo "check-format: --fix needs files" >&2; exit 2; }
    "$clang_format" -i "${fix_files[@]}"
    # Read whole before write_list truncates the file (in one pipeline the two race).
    still_listed=$(listed | grep -vxF -f <(printf '%s\n' "${fix_files[@]}") || true)
    if [[ -n $still_listed ]]; then printf '%s\n' "$still_listed"; fi | write_list
    echo "check-format: formatted ${#fix_files[@]} files; $list lists $(listed | wc -l)"
    exit 0 ;;
esac

all=$(cpp_files)
known=$(listed)
bad=$(unformatted <<<"$all")
failed=0
# 1. Unlisted and not formatted.
while read -r f; do
  [[ -n $f ]] || continue
  echo "check-format: $f is not formatted: clang-format-16 -i $f (or scripts/check-format.sh --fix $f)"
  "$clang_format" "$f" | diff -u --label "$f" --label "$f (formatted)" "$f" - | head -n 20 || true
  failed=1
done < <(comm -23 <(echo "$bad") <(echo "$known"))
# 2. Listed but formatted, or gone.
while read -r f; do
  [[ -n $f ]] || continue
  if grep -qxF -- "$f" <<<"$all"; then
    echo "check-format: $f is formatted now: remove it from $list"
  else
    echo "check-format: $f is listed in $list but is not in the tree: remove it from the list"
  fi
  failed=1
done < <(comm -23 <(echo "$known") <(echo "$bad"))
# 3. The lines this branch changed in listed files.
changed_note="no git checkout: changed lines not checked"
if $is_git; then
  if [[ -z $base ]]; then
    for ref in origin/main main; do
      if git rev-parse -q --verify "$ref^{commit}" >/dev/null; then
        base=$(git merge-base HEAD "$ref" 2>/dev/null) && break
      fi
    done
  fi
  if [[ -z $base ]]; then
    changed_note="no origin/main or main: changed lines not checked"
  else
    changed_note="changed lines since ${base:0:12} checked"
    mapfile -t touched < <(git diff --name-only "$base" -- $known 2>/dev/null)
    if ((${#touched[@]})); then
      changed_note="changed lines since ${base:0:12} checked in ${#touched[@]} listed files"
      if ! out=$(GIT_PAGER=cat git clang-format-16 --binary "$(command -v "$clang_format")" --diff \
                   --extensions cpp,hpp,h "$base" -- "${touched[@]}" 2>&1); then
        echo "check-format: lines changed since ${base:0:12} are not formatted (git clang-format-16 --binary clang-format-16 ${base:0:12} fixes them):"
        echo "$out" | head -n 40
        failed=1
      fi
    fi
  fi
fi
n_all=$(grep -c . <<<"$all" || true)
n_known=$(grep -c . <<<"$known" || true)
echo "check-format: $((n_all - n_known)) of $n_all files formatted, $n_known listed as not yet; $changed_note"
exit "$failed"
