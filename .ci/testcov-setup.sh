#!/usr/bin/env bash
# Install TestCov (the Test-Comp test-suite validator) and what it needs on a
# Debian machine, installing only what is missing; safe to run repeatedly.
#
#   - Debian packages: lcov (coverage measurement), gcc-multilib (TestCov
#     compiles with -m32 unless given -64), clang-tidy-16 (TestCov adds braces
#     to every if/else/loop with `clang-tidy` before labelling branches).
#   - `clang-tidy` on PATH: a symlink to clang-tidy-16 in /usr/local/bin.
#   - PyPI: testcov 3.7 (brings benchexec, lxml, numpy, tsbuilder, pycparser).
#
# Run TestCov with --no-isolation (no cgroups/containers needed) and
# --no-plots (matplotlib is not installed), in a scratch working directory:
# it writes files there (see tests/testcomp/README.md).
set -euo pipefail

TESTCOV_VERSION=3.7

need=()
command -v lcov >/dev/null || need+=(lcov)
command -v gcc >/dev/null || need+=(gcc)
command -v zip >/dev/null || need+=(zip)
# gcc-multilib: check that a 32-bit program links, not only that the package exists.
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
printf 'int main(void){return 0;}\n' >"$probe_dir/p.c"
if ! gcc -m32 "$probe_dir/p.c" -o "$probe_dir/p" >/dev/null 2>&1; then
    need+=(gcc-multilib)
fi
if ! command -v clang-tidy >/dev/null && ! command -v clang-tidy-16 >/dev/null; then
    need+=(clang-tidy-16)
fi
if ! command -v pip3 >/dev/null && ! python3 -m pip --version >/dev/null 2>&1; then
    need+=(python3-pip)
fi
if [ ${#need[@]} -gt 0 ]; then
    echo "testcov-setup: installing Debian packages: ${need[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends "${need[@]}"
fi

if ! command -v clang-tidy >/dev/null; then
    ln -sf "$(command -v clang-tidy-16)" /usr/local/bin/clang-tidy
fi

installed=$(python3 -m pip show testcov 2>/dev/null | sed -n 's/^Version: //p' || true)
if [ "$installed" != "$TESTCOV_VERSION" ]; then
    echo "testcov-setup: installing testcov $TESTCOV_VERSION from PyPI" >&2
    # Debian's system Python refuses pip installs (PEP 668) without the flag.
    python3 -m pip install "testcov==$TESTCOV_VERSION" \
        || python3 -m pip install --break-system-packages "testcov==$TESTCOV_VERSION"
    if command -v pyenv >/dev/null; then pyenv rehash; fi
fi

command -v testcov >/dev/null || { echo "testcov-setup: testcov is not on PATH" >&2; exit 1; }
echo "testcov-setup: ok ($(testcov --version 2>&1), $(lcov --version | head -n1), $(clang-tidy --version | grep -o 'LLVM version [0-9.]*'))" >&2
