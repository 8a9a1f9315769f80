# Sourced by the bin/ scripts: builds what a script runs when it was never built, or when a source
# file or a pom of the build is newer than the last build, so a 'git pull' never runs old code.
#
#   build_if_stale MODULE DESCRIPTION "DIR..." OUTPUT...
#
# MODULE is a Maven module path ('infra/local-stack'); it is built with what it depends on
# ('-pl MODULE -am install -DskipTests'). DIRs are the top-level directories holding it and those
# modules (their src/main and poms are watched, with the parent pom and .mvn). OUTPUT files must
# exist after the build. $root is the repository's top directory.

build_if_stale() {
  local module=$1 what=$2 dirs=() dir
  for dir in $3; do dirs+=("$root/$dir"); done
  shift 3
  local stamp="$root/$module/target/bin-build.stamp" reason="" output newer
  for output in "$stamp" "$@"; do
    [[ -e "$output" ]] || reason="first run"
  done
  if [[ -z "$reason" ]]; then
    newer=$(find "$root/pom.xml" "$root/.mvn" "${dirs[@]}" \( -name target -o -name .stack \) -prune -o \
                 -type f \( -path '*/src/main/*' -o -name pom.xml -o -path "$root/.mvn/*" \) -newer "$stamp" -print -quit)
    [[ -z "$newer" ]] || reason="changed since the last build: ${newer#"$root"/}"
  fi
  [[ -n "$reason" ]] || return 0
  echo "building $what ($reason)..." >&2
  local started=$SECONDS said=$SECONDS build status=0
  # quiet Maven says nothing while it downloads and compiles (minutes on a fresh machine): a line every 30 s says it works
  (cd "$root" && ./mvnw -q -B -pl "$module" -am install -DskipTests -Djib.skip) >&2 &
  build=$!
  while kill -0 "$build" 2>/dev/null; do
    sleep 1
    if ((SECONDS - said >= 30)); then
      said=$SECONDS
      echo "  still building $what: $((SECONDS - started)) s" >&2
    fi
  done
  wait "$build" || status=$?
  ((status == 0)) || { echo "building $what failed (exit $status; Maven's output above)" >&2; return "$status"; }
  touch "$stamp"
  echo "built $what in $((SECONDS - started)) s" >&2
}
