#!/bin/sh
# LabelDesk client for POSIX sh + curl, version __LABELDESK_VERSION__.
# Talks to a LabelDesk detection service; the executable reference for its interface.
# Single file, no dependencies beyond curl (no jq: the few fields it needs are read with sed).
#
# Usage (BASE_URL and API_KEY from the environment; JSON on stdout, errors on stderr):
#   sh labeldesk.sh catalog | health | key | sdk-key | session DEVICE_ID
#   sh labeldesk.sh image FILE SOLUTION | video FILE SOLUTION | job ID | cancel ID
# TURNSTILE_TOKEN (optional) is sent by `session`. `video` submits, polls honouring
# pollIntervalMs, prints the final job, and exits non-zero unless it succeeded.

VERSION='__LABELDESK_VERSION__'

usage() {
  [ -n "$1" ] && echo "labeldesk: $1" >&2
  cat >&2 <<'EOF'
usage: labeldesk.sh <command> [args]   (env: BASE_URL, API_KEY, TURNSTILE_TOKEN)
  catalog | health | key | sdk-key | session DEVICE_ID
  image FILE SOLUTION | video FILE SOLUTION | job ID | cancel ID
EOF
  exit 2
}

die() {
  echo "labeldesk: $*" >&2
  exit 1
}

BODY=$(mktemp) || die 'cannot create a temp file'
trap 'rm -f "$BODY"' EXIT
trap 'exit 130' INT TERM

# call METHOD PATH [curl args...]: the body lands in $BODY; non-2xx answers go to stderr, exit 1.
call() {
  method=$1 path=$2
  shift 2
  code=$(curl -sS -X "$method" -o "$BODY" -w '%{http_code}' -A "labeldesk-sh/$VERSION" \
    "$@" "${BASE_URL%/}$path") || die "request failed: $method $path"
  case $code in
    2??) ;;
    *)
      err_code=$(field code <"$BODY")
      err_msg=$(field message <"$BODY")
      die "$code ${err_code:-http_error}: ${err_msg:-$(dd bs=200 count=1 <"$BODY" 2>/dev/null)}"
      ;;
  esac
}

auth() {
  call "$@" -H "Authorization: Bearer $API_KEY"
}

# field NAME: the value of the first "NAME": in the JSON on stdin (a string, or a bare number or
# word). Enough for the few top-level fields this script reads; not a general JSON parser.
field() {
  awk -v key="\"$1\"" 'BEGIN { RS = "\001" } {
    s = $0
    while ((i = index(s, key)) > 0) {
      s = substr(s, i + length(key))
      if (!match(s, /^[ \t\r\n]*:[ \t\r\n]*/)) continue
      s = substr(s, RLENGTH + 1)
      if (substr(s, 1, 1) == "\"") {
        match(substr(s, 2), /^([^"\\]|\\.)*/)
        print substr(s, 2, RLENGTH)
      } else {
        match(s, /^[^,}\] \t\r\n]*/)
        print substr(s, 1, RLENGTH)
      }
      exit
    }
  }'
}

# quoted STRING: STRING in double quotes, backslashes and quotes escaped (for JSON and curl -F).
quoted() {
  printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"
}

# Content type of an upload, from its extension.
content_type() {
  ext=$(printf '%s' "${1##*.}" | tr 'A-Z' 'a-z')
  case $ext in
    jpg | jpeg) echo image/jpeg ;;
    png | webp | gif | tiff | bmp | avif) echo "image/$ext" ;;
    mp4 | webm) echo "video/$ext" ;;
    mov) echo video/quicktime ;;
    avi) echo video/x-msvideo ;;
    mkv) echo video/x-matroska ;;
    *) echo application/octet-stream ;;
  esac
}

# upload PATH FILE SOLUTION: multipart with `solution` first (the server checks it before the file).
upload() {
  [ -r "$2" ] || die "cannot read $2"
  # --form-string: a solution starting with @ or < must not be read as a file name.
  auth POST "$1" --form-string "solution=$3" -F "file=@$(quoted "$2");type=$(content_type "$2")"
}

# sleep_ms MS: fractional sleep where sleep allows it, else whole seconds rounded up.
sleep_ms() {
  sleep "$(awk -v ms="$1" 'BEGIN { printf "%.3f", ms / 1000 }')" 2>/dev/null ||
    sleep "$(awk -v ms="$1" 'BEGIN { s = int((ms + 999) / 1000); print (s < 1 ? 1 : s) }')"
}

poll_interval() {
  ms=$(field pollIntervalMs <"$BODY")
  case $ms in
    '' | *[!0-9.]*) echo 1000 ;;
    *) echo "$ms" ;;
  esac
}

[ $# -ge 1 ] || usage
cmd=$1
shift
[ -n "$BASE_URL" ] || usage 'BASE_URL is not set'

case $cmd in
  catalog) call GET /catalog ;;
  health) call GET /healthz ;;
  key) auth GET /key ;;
  sdk-key) auth POST /sdk-key -H 'Content-Type: application/json' --data '{}' ;;
  session)
    [ -n "$1" ] || usage
    json="{\"deviceId\":$(quoted "$1")"
    [ -n "$TURNSTILE_TOKEN" ] && json="$json,\"turnstileToken\":$(quoted "$TURNSTILE_TOKEN")"
    call POST /session -H 'Content-Type: application/json' --data "$json}"
    ;;
  image)
    [ -n "$2" ] || usage
    upload /infer/image "$1" "$2"
    ;;
  video)
    [ -n "$2" ] || usage
    upload /infer/video "$1" "$2"
    job_id=$(field jobId <"$BODY")
    [ -n "$job_id" ] || die "no jobId in the answer: $(cat "$BODY")"
    while :; do
      sleep_ms "$(poll_interval)"
      auth GET "/jobs/$job_id"
      status=$(field status <"$BODY")
      case $status in
        succeeded) break ;;
        failed | cancelled)
          cat "$BODY"
          echo
          die "job $job_id ended $status"
          ;;
      esac
    done
    ;;
  job)
    [ -n "$1" ] || usage
    auth GET "/jobs/$1"
    ;;
  cancel)
    [ -n "$1" ] || usage
    auth DELETE "/jobs/$1"
    ;;
  *) usage "unknown command: $cmd" ;;
esac

cat "$BODY"
echo
