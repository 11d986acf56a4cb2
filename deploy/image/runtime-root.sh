#!/usr/bin/env bash
# The image's base layer, built from this machine's JDK without a container daemon or a registry: a jlink'ed Java
# runtime at /opt/java holding only the modules the jar needs, the C libraries that runtime links against (copied from
# this machine, with the dynamic loader), /etc/passwd and /etc/group naming the non-root user 65532, and /tmp.
# The image build (launcher pom, profile "image") runs it; by hand:
#   deploy/image/runtime-root.sh launcher/target/pd-gateway.jar launcher/target/image-root
# Needs a Linux glibc JDK 17+ with jmods (Debian: openjdk-17-jdk-headless) and ldd.
set -euo pipefail
jar="$1"
root="$(realpath -m "$2")"
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
jlink="$java_home/bin/jlink"
jdeps="$java_home/bin/jdeps"
[ -d "$java_home/jmods" ] || { echo "runtime-root: $java_home has no jmods; install the full JDK (openjdk-17-jdk-headless)" >&2; exit 1; }

# The modules the jar's classes use, plus one reached only through service lookup: jdk.crypto.ec, for TLS to the
# Kubernetes API (ECDHE suites).
modules="$("$jdeps" --print-module-deps --ignore-missing-deps --multi-release 17 "$jar" 2>/dev/null),jdk.crypto.ec"
rm -rf "$root"
mkdir -p "$root/opt" "$root/etc" "$root/tmp" "$root/home/nonroot"
"$jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=2 \
  --output "$root/opt/java"

# The C libraries: ldd over the runtime's executables and libraries, the desktop ones (AWT, sound, fonts, images)
# left out, as a headless gateway never loads them and they would pull in X11.
desktop='libawt|libawt_xawt|libawt_headless|libjawt|libsplashscreen|libfontmanager|liblcms|libjavajpeg|libmlib_image|libjsound'
find "$root/opt/java/bin" "$root/opt/java/lib" -type f \( -perm -u+x -o -name '*.so' \) \
  | grep -Ev "/($desktop)\.so$" \
  | while read -r elf; do ldd "$elf" 2>/dev/null || true; done \
  | awk '/=> \// {print $3} /^\s*\/.*ld-linux/ {print $1}' | grep -v "^$root/" | sort -u \
  | while read -r lib; do
      mkdir -p "$root$(dirname "$lib")"
      cp -L "$lib" "$root$lib"
    done

cat > "$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
PASSWD
cat > "$root/etc/group" <<'GROUP'
root:x:0:
nonroot:x:65532:
GROUP
echo "runtime-root: $(du -sh "$root" | cut -f1) in $root (modules: $modules)" >&2
