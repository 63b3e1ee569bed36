# Sourced by scripts/windows.sh and scripts/web.sh: `need PACKAGE...` makes sure the
# Debian packages are there. It installs the missing ones with apt-get when the script
# was given --install (`install=1`) and runs as root; otherwise, or if apt-get fails,
# it says what is missing and exits with status 3. The caller defines `say`.
need() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "${install:-0}" = 1 ] && [ "$(id -u)" = 0 ]; then
    say "installing ${missing[*]}"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
           apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
      say "apt-get could not install ${missing[*]}" >&2
      exit 3
    fi
  else
    say "missing Debian packages: ${missing[*]} (run with --install, as root)" >&2
    exit 3
  fi
}
