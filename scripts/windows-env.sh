# Sourced by scripts/build-windows.sh and scripts/windows-tests.sh: the toolchain for
# x86_64-pc-windows-gnu, cross-built here, and (with `windows_wine`) Wine to run it.
#
# rustup cannot fetch a Windows standard library here, so, as for wasm
# (scripts/build-wasm-core.sh), Debian's rustc-web builds std from rust-web-src
# (`-Zbuild-std`, RUSTC_BOOTSTRAP=1), driven by the usual cargo; Debian's MinGW-w64 links.
# Its own target dir (WINDOWS_TARGET_DIR, default target/windows): a different rustc
# would otherwise rebuild the host's artifacts.

windows_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WINDOWS_TRIPLE=x86_64-pc-windows-gnu
WINDOWS_TARGET_DIR="${WINDOWS_TARGET_DIR:-$windows_root/target/windows}"
WINDOWS_BUILD_STD=(--target "$WINDOWS_TRIPLE" -Zbuild-std=std,panic_unwind)

# The jxray package's version (Cargo.toml's), for the zip's name.
windows_version() {
  cargo metadata --no-deps --format-version 1 --locked --manifest-path "$windows_root/Cargo.toml" |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "jxray"))'
}

# Install the Debian packages named (`command:package` pairs) whose command is missing.
windows_install() {
  local need=() pair
  for pair in "$@"; do
    [[ -e "${pair%%:*}" ]] || command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
  done
  if [[ ${#need[@]} -gt 0 ]]; then
    echo "windows: installing ${need[*]}" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  fi
}

# The cross toolchain: rustc-web with its std sources, MinGW-w64, zip and unzip.
windows_toolchain() {
  windows_install /usr/bin/rustc:rustc-web /usr/lib/rustlib/src/rust/library:rust-web-src \
    x86_64-w64-mingw32-gcc:gcc-mingw-w64-x86-64 zip:zip unzip:unzip
  export CARGO_TARGET_DIR="$WINDOWS_TARGET_DIR"
  export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
  # One section per function, as on Linux (the target's default is one per codegen unit),
  # so that the linker drops the functions nothing calls; and bitcode in every library,
  # for windows_exe's link-time optimisation, so that the tests' builds and the shipped
  # executable's share every dependency.
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS="-Zfunction-sections=yes -Cembed-bitcode=yes"
  # No debug info in the test builds: with DWARF each test executable is about 400 MB,
  # and the Windows target dir passed 9 GB.
  export CARGO_PROFILE_DEV_DEBUG=false
  # The release profile's LTO for Linux is not for MinGW's ld (relocations overflow):
  # only windows_exe optimises at link time, linked by LLD.
  export CARGO_PROFILE_RELEASE_LTO=false
}

# Build the shipped jxray.exe and print its path: the release build, optimised as one
# program at link time (fat LTO; only the executable, not the tests) and linked by LLD in
# MinGW mode, which MinGW's ld cannot do for it (relocations overflow). Without LTO the
# executable holds every generic function about twice as often as the Linux build does:
# 22.3 MB against 13.2 MB (docs/windows.md). Debian's MinGW GCC always runs MinGW's ld
# (it is built --with-ld), so rustc drives LLD itself, given MinGW's start-up objects and
# C runtime libraries as GCC would pass them.
# (Called as $(windows_exe), where errexit does not reach: each step returns on failure.)
windows_exe() {
  windows_install /usr/lib/llvm-16/bin/ld.lld:lld-16 || return
  local gcc=x86_64-w64-mingw32-gcc crt2 begin end
  crt2=$(realpath "$($gcc -print-file-name=crt2.o)") || return
  begin=$(realpath "$($gcc -print-file-name=crtbegin.o)") || return
  end=$(realpath "$($gcc -print-file-name=crtend.o)") || return
  cargo rustc --quiet --release --locked --bin jxray "${WINDOWS_BUILD_STD[@]}" -- \
    -C lto=fat -C linker=/usr/lib/llvm-16/bin/ld.lld -C linker-flavor=gnu-lld \
    "-Zpre-link-args=$crt2 $begin -L$(dirname "$begin") -L$(dirname "$crt2")" \
    "-Clink-args=-lmingw32 -lgcc -lgcc_eh -lmoldname -lmingwex -lmsvcrt -lkernel32 $end" >&2 ||
    return
  echo "$WINDOWS_TARGET_DIR/$WINDOWS_TRIPLE/release/jxray.exe"
}

# The DLLs that FILE (an .exe or a .pyd) imports, lower-case, one a line. Fails, naming
# them, when it imports one that Windows 10 and later do not have: a MinGW runtime DLL
# would not be found on a user's machine. EXTRA, a regex alternative, allows more (python3
# for the extension module, which the Python that loads it has).
windows_imports() {
  local file="$1" extra="${2:-}"
  local system='kernel32|advapi32|ntdll|bcrypt|bcryptprimitives|ws2_32|userenv|user32|shell32|ole32|oleaut32|combase|msvcrt|crypt32|secur32|api-ms-win-[a-z0-9-]+'
  [[ -n "$extra" ]] && system="$system|$extra"
  local dlls
  dlls=$(x86_64-w64-mingw32-objdump -p "$file" | sed -n 's/^\s*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u)
  if [[ -z "$dlls" ]] || grep -Evq "^($system)\.dll\$" <<<"$dlls"; then
    echo "windows: $file needs a DLL Windows does not have: $(grep -Ev "^($system)\.dll\$" <<<"$dlls" | tr '\n' ' ')" >&2
    return 1
  fi
  echo "$dlls"
}

# Wine (8.0 in Debian 12) with a prefix of its own, as the runner of Windows test binaries.
#
# Rust's std (1.78 and later) imports ProcessPrng from bcryptprimitives.dll, which Wine
# has only from 8.13 on, so nothing Rust built starts under Wine 8.0. A ten-line DLL
# giving ProcessPrng through RtlGenRandom is built here from source into the prefix. It
# is for running tests under Wine only and is never shipped: Windows 10 and later have
# the real DLL.
windows_wine() {
  windows_install wine:wine
  dpkg -s wine64 >/dev/null 2>&1 || windows_install /nonexistent:wine64
  export WINEPREFIX="$WINDOWS_TARGET_DIR/wine-prefix" WINEDEBUG=-all
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine
  local system32="$WINEPREFIX/drive_c/windows/system32"
  if [[ ! -f "$system32/bcryptprimitives.dll" ]]; then
    mkdir -p "$WINEPREFIX"
    wine wineboot -i >/dev/null 2>&1
    local shim="$WINDOWS_TARGET_DIR/wine-shim"
    mkdir -p "$shim"
    cat >"$shim/bcryptprimitives.c" <<'C'
/* For tests under Wine < 8.13 only, never shipped: Rust's std asks for ProcessPrng. */
#include <windows.h>
#include <ntsecapi.h>
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
C
    printf 'LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng\n' >"$shim/bcryptprimitives.def"
    x86_64-w64-mingw32-gcc -O2 -shared -o "$shim/bcryptprimitives.dll" \
      "$shim/bcryptprimitives.c" "$shim/bcryptprimitives.def" -ladvapi32
    cp "$shim/bcryptprimitives.dll" "$system32/"
  fi
}
