# Sourced by the CLI test scripts: starts `$arbiterd` on its embedded
# PostgreSQL in a fresh directory, stops it and removes the directory on exit,
# and sets `work` (the directory), `data` (arbiterd's data directory, with
# admin.token) and `address` (where it listens). `work_name` names the
# directory (/tmp/<work_name>.XXXXXX).
work=$(mktemp -d "/tmp/${work_name:-arbiter-cli}.XXXXXX")
chmod 755 "$work"  # as root the embedded PostgreSQL runs as "postgres"
data="$work/data"
"$arbiterd" --data-dir "$data" --listen 127.0.0.1:0 --http-listen "" >"$work/banner" 2>"$work/log" &
pid=$!
cleanup() {
  kill -TERM "$pid" 2>/dev/null && wait "$pid" || true
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 240); do
  grep -q "listening on" "$work/banner" && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/log" >&2; exit 1; }
  sleep 0.5
done
address=$(sed -n 's/^arbiterd is listening on \([^ ]*\) .*/\1/p' "$work/banner")
