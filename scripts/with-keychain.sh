#!/usr/bin/env bash
# Runs a command where keytar can reach an unlocked Secret Service, e.g.
#   bash scripts/with-keychain.sh npx vitest run
# If the current D-Bus session already has a writable one (a desktop login), the command runs as
# is. Otherwise (CI, containers, SSH) it runs inside a private D-Bus session with a throwaway,
# unlocked gnome-keyring whose files live in a temp folder removed afterwards, so the user's own
# keyrings are never touched. The command's exit code is returned.
set -u

if [ "$#" -eq 0 ]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 64
fi

# Reachable means a store-and-clear round trip works: a locked or missing collection answers
# lookups but refuses writes, and the tests need writes. timeout guards against a prompt.
secret_service_works() {
  [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || return 1
  command -v secret-tool >/dev/null 2>&1 || return 1
  printf probe | timeout 10 secret-tool store --label='LabelDesk keychain probe' \
    service labeldesk-probe account probe >/dev/null 2>&1 || return 1
  timeout 10 secret-tool clear service labeldesk-probe account probe >/dev/null 2>&1
  return 0
}

if secret_service_works; then
  exec "$@"
fi

for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-keychain: $tool not found (apt-get install dbus gnome-keyring libsecret-tools)" >&2
    exit 127
  fi
done

keyring_home=$(mktemp -d "${TMPDIR:-/tmp}/labeldesk-keyring.XXXXXX") || exit 70
trap 'rm -rf "$keyring_home"' EXIT

# Not exec'd, so the trap can remove the throwaway keyring. Inside the session: XDG_DATA_HOME
# keeps the keyring files in the temp folder, and the random password only ever exists in the
# pipe (never in argv or the environment).
dbus-run-session -- sh -c '
  home=$1
  shift
  mkdir -m 700 "$home/data" "$home/run" || exit 70
  head -c 24 /dev/urandom | base64 | tr -d "\n" |
    XDG_DATA_HOME="$home/data" XDG_RUNTIME_DIR="$home/run" \
      gnome-keyring-daemon --unlock --components=secrets >/dev/null || {
    echo "with-keychain: gnome-keyring-daemon failed to start" >&2
    exit 70
  }
  exec "$@"
' with-keychain "$keyring_home" "$@"
exit $?
