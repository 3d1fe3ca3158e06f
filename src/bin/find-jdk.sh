# Sourced (POSIX sh) by ./mvnw and the launchers: exports JAVA_HOME pointing at a JDK >= 25.
# Order: JAVA_HOME if it is new enough, else the newest JDK >= 25 under /usr/lib/jvm.

numacol_java_major() {
  # Prints the feature version of the JDK at $1 (e.g. 25), or nothing.
  if [ -f "$1/release" ]; then
    sed -n 's/^JAVA_VERSION="\{0,1\}\([0-9][0-9]*\).*/\1/p' "$1/release" | head -n 1
  elif [ -x "$1/bin/java" ]; then
    "$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n 1
  fi
}

numacol_find_jdk() {
  numacol_min=25
  if [ -n "${JAVA_HOME-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    numacol_v=$(numacol_java_major "$JAVA_HOME")
    if [ -n "$numacol_v" ] && [ "$numacol_v" -ge "$numacol_min" ]; then
      return 0
    fi
  fi
  numacol_best="" numacol_best_v=0
  # mvnw runs under 'set -f'; the search needs globbing.
  case $- in *f*) numacol_noglob=1; set +f ;; *) numacol_noglob= ;; esac
  for numacol_d in /usr/lib/jvm/*; do
    [ -x "$numacol_d/bin/javac" ] || continue
    numacol_v=$(numacol_java_major "$numacol_d")
    [ -n "$numacol_v" ] || continue
    if [ "$numacol_v" -ge "$numacol_min" ] && [ "$numacol_v" -gt "$numacol_best_v" ]; then
      numacol_best=$numacol_d numacol_best_v=$numacol_v
    fi
  done
  [ -z "$numacol_noglob" ] || set -f
  if [ -z "$numacol_best" ]; then
    echo "numacol needs a JDK $numacol_min or newer: set JAVA_HOME to one, or install one under /usr/lib/jvm" >&2
    echo "(JAVA_HOME is '${JAVA_HOME-}'; on Debian/Ubuntu e.g. 'apt-get install openjdk-25-jdk-headless')." >&2
    return 1
  fi
  JAVA_HOME=$numacol_best
  export JAVA_HOME
}

numacol_find_jdk || exit 1
