# Sourced (POSIX sh) by the launchers: the JVM's ahead-of-time cache (JDK 25, JEPs 483, 514 and 515:
# classes loaded and linked, and method profiles, from a training run). A cold start reads them
# from the cache instead of opening, verifying and linking some 6,000 classes again.
#
# numacol_aot_cache FILE MAIN [ARGS...] sets aot_opts to the flag that uses FILE, first making it by
# a training run of MAIN ARGS (output to FILE.log) when it is missing, older than the jars of the
# class path $cp, or made by another JDK or other JVM flags (FILE.stamp): the JVM refuses such a
# cache with an error on every start. The cache lives in the build's target/ (a clean build removes
# it), as it fits only these jars. Expects JAVA_HOME, cp and jvm_opts; NUMACOL_AOT=off skips it.
numacol_aot_cache() {
  numacol_aot_file=$1
  shift
  aot_opts=
  [ "${NUMACOL_AOT-on}" != off ] || return 0
  numacol_aot_stale=
  numacol_aot_stamp="$JAVA_HOME $jvm_opts"
  if [ ! -f "$numacol_aot_file" ] || [ "$(cat "$numacol_aot_file.stamp" 2>/dev/null)" != "$numacol_aot_stamp" ] || \
     [ "$JAVA_HOME/release" -nt "$numacol_aot_file" ]; then
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
    rm -f "$numacol_aot_file"
    echo "numacol: a training run makes the JVM's ahead-of-time cache $numacol_aot_file (once per build)" >&2
    # -XX:AOTCacheOutput: one step (JEP 514), the JVM writes the cache as the training run exits;
    # a failed training run leaves no cache, and the launcher runs without one
    "$JAVA_HOME/bin/java" $jvm_opts -XX:AOTCacheOutput="$numacol_aot_file" -cp "$cp" "$@" \
      </dev/null >"$numacol_aot_file.log" 2>&1 || rm -f "$numacol_aot_file"
    echo "$numacol_aot_stamp" >"$numacol_aot_file.stamp"
  fi
  if [ -f "$numacol_aot_file" ]; then
    aot_opts="-XX:AOTCache=$numacol_aot_file"
  fi
}
