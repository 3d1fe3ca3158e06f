# Sourced (POSIX sh) by the launchers: the JVM's ahead-of-time cache (JDK 25, JEPs 483, 514 and 515:
# classes loaded and linked, and method profiles, from a training run). A cold start reads them
# from the cache instead of opening, verifying and linking some 6,000 classes again.
#
# numacol_aot_cache FILE MAIN [ARGS...] sets aot_opts to the flag that uses FILE, first making it by
# a training run of MAIN ARGS (output to FILE.log) when it is missing, older than the jars of the
# class path $cp, or made by another JDK, other JVM flags or another class path (FILE.stamp): the
# JVM ignores such a cache, or prints errors on every start. The cache lives in the build's target/ (a clean build removes
# it), as it fits only these jars. Expects JAVA_HOME, cp and jvm_opts; NUMACOL_AOT=off skips it.
numacol_aot_cache() {
  numacol_aot_file=$1
  shift
  aot_opts=
  [ "${NUMACOL_AOT-on}" != off ] || return 0
  numacol_aot_stale=
  # the class path too: the JVM silently ignores a cache made for another one
  numacol_aot_stamp="$JAVA_HOME $jvm_opts $cp"
  numacol_aot_same=
  [ "$(cat "$numacol_aot_file.stamp" 2>/dev/null)" != "$numacol_aot_stamp" ] || numacol_aot_same=1
  if [ -n "$numacol_aot_same" ] && [ -f "$numacol_aot_file.failed" ] && [ ! "$JAVA_HOME/release" -nt "$numacol_aot_file.failed" ]; then
    return 0 # a training run for these jars and flags failed: not again at every start (its log says why)
  fi
  if [ ! -f "$numacol_aot_file" ] || [ -z "$numacol_aot_same" ] || [ "$JAVA_HOME/release" -nt "$numacol_aot_file" ]; then
    numacol_aot_stale=1
  else
    numacol_aot_ifs=$IFS
    IFS=:
    for numacol_aot_jar in $cp; do
      if [ "$numacol_aot_jar" -nt "$numacol_aot_file" ]; then
        numacol_aot_stale=1
        break
      fi
    done
    IFS=$numacol_aot_ifs
  fi
  if [ -n "$numacol_aot_stale" ]; then
    mkdir -p "$(dirname "$numacol_aot_file")"
    rm -f "$numacol_aot_file" "$numacol_aot_file.failed"
    echo "numacol: a training run makes the JVM's ahead-of-time cache $numacol_aot_file (once per build)" >&2
    # -XX:AOTCacheOutput: one step (JEP 514), the JVM writes the cache as the training run exits;
    # written under a name of this process and moved into place, so that two launchers starting
    # at once never read a half-written cache; a failed training run leaves no cache, a marker
    # that stops the next starts from training again, and the launcher runs without one
    numacol_aot_temp="$numacol_aot_file.$$"
    if "$JAVA_HOME/bin/java" $jvm_opts -XX:AOTCacheOutput="$numacol_aot_temp" -cp "$cp" "$@" \
      </dev/null >"$numacol_aot_file.log" 2>&1 && [ -f "$numacol_aot_temp" ]; then
      mv -f "$numacol_aot_temp" "$numacol_aot_file"
    else
      rm -f "$numacol_aot_temp"
      touch "$numacol_aot_file.failed"
      echo "numacol: the training run failed, so starts go without a cache; see $numacol_aot_file.log" >&2
    fi
    rm -f "$numacol_aot_temp.config"
    echo "$numacol_aot_stamp" >"$numacol_aot_file.stamp"
  fi
  if [ -f "$numacol_aot_file" ]; then
    aot_opts="-XX:AOTCache=$numacol_aot_file"
  fi
}
