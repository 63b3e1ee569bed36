#!/usr/bin/env bash
# The self-play data that outlives a session (issue 42): `datagen` files packed as
# xz-compressed tar archives in train/archive/, each member listed in
# train/archive/MANIFEST with its record count and SHA-256, so the data of many sessions
# can train one network. train/archive/README.md says what each archive holds and how it
# was made.
#
# Usage:
#   train/archive.sh pack NAME FILE.data...  pack the files as train/archive/NAME.tar.xz
#                                            and add their MANIFEST lines
#   train/archive.sh unpack [DIR] [PATTERN]  unpack every archive (or those whose name
#                                            matches the shell PATTERN) into DIR
#                                            (default train/data/archive) and check them
#   train/archive.sh check                   unpack every archive into a temporary folder
#                                            and check it against MANIFEST
#   train/archive.sh list [DIR] [PATTERN]    the options that give `fivefold-tools train`
#                                            the unpacked files in DIR: --held-out for
#                                            the members of validation archives (named
#                                            val-*), --data for the rest
# FILE, DIR and ARCHIVE are relative to the caller's folder; the defaults are in the
# repository.
# Environment: ARCHIVE = the folder of the archives and MANIFEST (default train/archive).
#
# MANIFEST: one line a member, `ARCHIVE MEMBER RECORDS SHA256`; RECORDS is the file's
# record count as docs/data.md defines it ((size - 16) / record size). A file whose size
# is not a whole number of records is refused by `pack`.
# Needs tar, xz, sha256sum and od (Debian: tar, xz-utils, coreutils).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
DIR=${ARCHIVE:-$root/train/archive}
MANIFEST=$DIR/MANIFEST

die() { echo "train/archive.sh: $*" >&2; exit 1; }
usage() { sed -n '8,23p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# records FILE: the record count of a datagen file, or an error.
records() {
  local f=$1 size rec magic
  size=$(stat -c %s "$f")
  [ "$size" -ge 16 ] || die "$f: shorter than the 16-byte header"
  magic=$(head -c 8 "$f")
  [ "$magic" = FIVEDATA ] || die "$f: not a datagen file (no FIVEDATA magic)"
  rec=$(od -An -tu2 -j14 -N2 --endian=little "$f" | tr -d ' ')
  [ "$rec" -gt 0 ] || die "$f: record size 0"
  (( (size - 16) % rec == 0 )) || die "$f: $size bytes is not the header and whole $rec-byte records"
  echo $(( (size - 16) / rec ))
}

# verify FOLDER [PATTERN]: every MANIFEST member of the matching archives is in FOLDER
# with its record count and checksum.
verify() {
  local folder=$1 pattern=${2:-*} n=0 total=0 archive member count sum got
  while read -r archive member count sum; do
    # shellcheck disable=SC2254
    case $archive in $pattern) ;; *) continue;; esac
    [ -f "$folder/$member" ] || die "$member of $archive is missing"
    got=$(records "$folder/$member")
    [ "$got" = "$count" ] || die "$member: $got records, MANIFEST says $count"
    got=$(sha256sum "$folder/$member" | cut -d' ' -f1)
    [ "$got" = "$sum" ] || die "$member: checksum $got, MANIFEST says $sum"
    n=$((n + 1)); total=$((total + count))
  done < "$MANIFEST"
  echo "train/archive.sh: $n files, $total positions, as MANIFEST lists them"
}

cmd=${1:-}
[ -n "$cmd" ] || usage
shift
case $cmd in
  pack)
    [ $# -ge 2 ] || usage
    name=$1; shift
    [[ "$name" =~ ^[A-Za-z0-9._-]+$ ]] || die "NAME is letters, digits, '.', '_' and '-'"
    out=$DIR/$name.tar.xz
    [ -e "$out" ] && die "$out exists already"
    mkdir -p "$DIR"; touch "$MANIFEST"
    lines=(); members=()
    for f in "$@"; do
      member=$(basename "$f")
      ! grep -q " $member " "$MANIFEST" || die "a member named $member is in MANIFEST already"
      n=$(records "$f")
      lines+=("$name.tar.xz $member $n $(sha256sum "$f" | cut -d' ' -f1)")
      # tar takes each -C relative to the one before: give it absolute folders.
      members+=(-C "$(cd "$(dirname "$f")" && pwd)" "$member")
    done
    # Members in the order given, without owners or times, so a pack is reproducible.
    # A pack that fails leaves no archive behind (and no MANIFEST lines).
    tar --create --file=- --owner=0 --group=0 --numeric-owner --mtime=@0 \
      "${members[@]}" | xz -9 -T1 > "$out" || { rm -f "$out"; die "$out: packing failed"; }
    printf '%s\n' "${lines[@]}" >> "$MANIFEST"
    echo "train/archive.sh: $out, $(stat -c %s "$out") bytes, ${#lines[@]} files"
    ;;
  unpack)
    folder=${1:-$root/train/data/archive}; pattern=${2:-*}
    mkdir -p "$folder"
    found=0
    for a in "$DIR"/*.tar.xz; do
      [ -e "$a" ] || continue
      # shellcheck disable=SC2254
      case $(basename "$a") in $pattern) ;; *) continue;; esac
      xz -dc "$a" | tar --extract --file=- --directory="$folder"
      found=$((found + 1))
    done
    [ "$found" -gt 0 ] || die "no archive matches '$pattern' in $DIR"
    verify "$folder" "$pattern"
    ;;
  check)
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    [ -s "$MANIFEST" ] || die "no $MANIFEST"
    # Every archive is in MANIFEST and every MANIFEST archive is here.
    for a in "$DIR"/*.tar.xz; do
      [ -e "$a" ] || continue
      grep -q "^$(basename "$a") " "$MANIFEST" || die "$a is not in MANIFEST"
    done
    cut -d' ' -f1 "$MANIFEST" | sort -u | while read -r a; do
      [ -f "$DIR/$a" ] || die "MANIFEST lists $a, which is not in $DIR"
    done
    for a in "$DIR"/*.tar.xz; do
      [ -e "$a" ] || continue
      xz -dc "$a" | tar --extract --file=- --directory="$tmp" || die "$a: does not unpack"
    done
    extra=$(comm -13 <(cut -d' ' -f2 "$MANIFEST" | sort) <(ls "$tmp" | sort))
    [ -z "$extra" ] || die "members not in MANIFEST: $extra"
    verify "$tmp"
    ;;
  list)
    folder=${1:-$root/train/data/archive}; pattern=${2:-*}
    while read -r archive member _; do
      # shellcheck disable=SC2254
      case $archive in
        $pattern) case $archive in val-*) opt=--held-out;; *) opt=--data;; esac
          printf -- '%s %s/%s\n' "$opt" "$folder" "$member";;
      esac
    done < "$MANIFEST"
    ;;
  *) usage;;
esac
