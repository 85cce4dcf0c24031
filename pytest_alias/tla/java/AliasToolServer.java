import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A long-lived JVM that runs one SANY or TLC check per request, each in a fresh class loader.
 *
 * <p>Starting a JVM and loading tla2tools.jar costs most of a small TLC check; this server pays it once.
 * TLC keeps its configuration in static fields, so every request loads tla2tools.jar's classes again
 * in a new class loader: statics start fresh. The jar's class files are read (inflated) once per
 * server and each loader defines its classes from those bytes (measured: a tiny check 15% faster
 * than a {@link URLClassLoader} per request); resources (the standard modules) still come from the
 * jar itself.
 *
 * <p>TLC's fingerprint sets are RMI remote objects (for distributed TLC), exported as they are built:
 * the RMI runtime then holds each one, and so its class and the whole check's loader, for the JVM's
 * life (about 3 MB of metaspace and 15 MB of memory per run), and caches their remote methods by class
 * besides. After each TLC check the server unexports the remote objects of the check's loader and
 * drops those cache entries ({@link RemoteObjects}), so the loader can be collected. That needs RMI's
 * internals opened to this class ({@code --add-opens java.rmi/sun.rmi.transport=ALL-UNNAMED} and
 * {@code sun.rmi.server}); where they are not (another JVM, other flags), or a release fails, the
 * check's classes stay, and the Python side replaces a server after a bounded number of such runs.
 *
 * <p>SANY alone is built to parse again and again in one JVM (the Toolbox does), so with
 * {@code -Dalias.sany.shared=true} (set by the Python side only for a jar whose statics it has
 * checked) every SANY request runs in one loader kept for the server's life: its classes are defined
 * and compiled once, and a parse costs about a seventh of one in a fresh loader (measured: 8-12 ms
 * instead of 60-90 ms per module). Before each such request the statics SANY itself leaves set are put
 * back as a fresh loader has them: its printing streams and message list ({@code util.ToolIO}) and the
 * lexer's comment depth (left above zero by a module that ends inside a comment). The standard modules
 * it unpacks go to a folder of the server's own, {@code sany-modules} in its working directory, as the
 * folder is fixed when SANY's classes are first initialised.
 *
 * <p>With {@code -Dalias.pluscal.fast=true} (set by the Python side with the shortcuts on, and only
 * with overrides, which it passes only for a jar it knows) the one call SANY makes to its PlusCal
 * check goes to the overrides' {@code alias.PlusCalCheck}, which gives the same answer without
 * copying a module that has no PlusCal ({@link JarImage#redirectPlusCalCheck}): the one jar class
 * the server edits rather than replaces.
 *
 * <p>Protocol (one request at a time, fields separated by TAB, UTF-8 lines):
 * <pre>
 *   arguments: tla2tools.jar [overrides]   (overrides: a folder of class files defined in place of
 *              the jar's classes of the same names; the Python side passes it only for a jar whose
 *              replaced classes it knows)
 *   request:  tool TAB outputFile TAB tmpDir TAB limitMillis TAB arg1 TAB arg2 ...   (tool is "tlc" or "sany")
 *   ready:    "ALIAS-READY" [TAB "releases"] [TAB "pluscal"]   (releases: TLC checks' loaders are released,
 *                                                 see above; pluscal: SANY's PlusCal check is redirected)
 *   reply:    "ALIAS-DONE" TAB exitCode [TAB "kept"]   (after outputFile is closed; kept: the check's
 *                                                 loader could not be released and stays reachable)
 *         or "ALIAS-FAULT" TAB description       (the request could not be run: a class or method the
 *                                                 jar lacks, a malformed request, an error of this server)
 * </pre>
 * A fault is the toolchain's, never a verdict on the spec: the Python side raises it as a tool fault.
 * The Python side enforces each check's time limit: it kills this process group and starts a new
 * server. The server enforces it too, in case the Python side cannot (stuck or stopped): a check
 * still running {@code limitMillis} after it started halts the JVM (0: no limit).
 * No compile-time dependency on tla2tools.jar: everything is reached by reflection.
 */
public final class AliasToolServer {
    private AliasToolServer() {}

    /** Whether SANY requests share one loader (see the class docs). */
    private static final boolean SHARED_SANY = Boolean.getBoolean("alias.sany.shared");
    /** The loader every SANY request runs in when {@link #SHARED_SANY}; made by the first one. */
    private static CheckLoader sanyLoader;
    /** Released checks between two full collections (see {@link #main}). */
    private static final int COLLECT_EVERY = Integer.getInteger("alias.collect.every", 25);
    private static int releasedSinceCollection;
    /** When the first wake of TLC's checker for an early liveness check comes (0: TLC's schedule only). */
    private static final long LIVENESS_TICK_MILLIS = Long.getLong("alias.liveness.tick", 0L);
    /** The share of a run its liveness checks may have taken for the ticker to wake TLC again. */
    private static final double LIVENESS_TICK_SHARE = 0.2;
    /** RMI's tables, where this JVM lets the server release a check's remote objects; else null. */
    private static final RemoteObjects REMOTE = RemoteObjects.open();
    /** Whether SANY's PlusCal check goes through the overrides' {@code alias.PlusCalCheck} (see
     *  {@link JarImage#redirectPlusCalCheck}); set by the Python side with the shortcuts on. */
    private static final boolean FAST_PLUSCAL_CHECK = Boolean.getBoolean("alias.pluscal.fast");

    public static void main(String[] argv) throws Exception {
        JarImage jar = new JarImage(new File(argv[0]));
        boolean pluscal = false;
        if (argv.length > 1) {
            jar.overlay(new File(argv[1]));
            pluscal = FAST_PLUSCAL_CHECK && jar.redirectPlusCalCheck();
        }
        PrintStream reply = new PrintStream(new FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        reply.println("ALIAS-READY" + (REMOTE != null ? "\treleases" : "") + (pluscal ? "\tpluscal" : ""));
        String line;
        while ((line = requests.readLine()) != null) {
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            long limit;
            try {
                limit = Long.parseLong(fields[3]);
            } catch (RuntimeException e) {
                reply.println("ALIAS-FAULT\tmalformed request: " + describe(e));
                continue;
            }
            String[] args = new String[fields.length - 4];
            System.arraycopy(fields, 4, args, 0, args.length);
            String[] fault = {null};
            boolean[] kept = {false};
            int code = runOne(jar, fields[0], fields[1], fields[2], limit, args, fault, kept);
            reply.println(fault[0] != null ? "ALIAS-FAULT\t" + fault[0]
                          : "ALIAS-DONE\t" + code + (kept[0] ? "\tkept" : ""));
            if (!kept[0] && ++releasedSinceCollection >= COLLECT_EVERY) {
                // Released loaders and what their checks allocated are garbage a young collection
                // leaves in the old generation: one full collection, while the Python side reads the
                // reply, frees them and gives the memory back (see the heap-ratio flags it starts with).
                releasedSinceCollection = 0;
                System.gc();
            }
        }
        // TLC may leave non-daemon threads behind; the server ends when its input does.
        System.exit(0);
    }

    /** One line describing {@code e} (no tabs or newlines: it travels in a reply line). */
    private static String describe(Throwable e) {
        return String.valueOf(e).replaceAll("[\\t\\r\\n]+", " ");
    }

    private static int runOne(JarImage jar, String tool, String outputFile, String tmpDir, long limitMillis,
                              String[] args, String[] fault, boolean[] kept) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        String savedTmp = System.getProperty("java.io.tmpdir");
        int code;
        boolean shared = SHARED_SANY && "sany".equals(tool);
        CheckLoader loader;
        try {
            loader = shared ? sharedSanyLoader(jar) : new CheckLoader(jar);
        } catch (Throwable e) {
            fault[0] = "the tool server cannot share SANY's loader: " + describe(e);
            return 150;
        }
        try (PrintStream output = new PrintStream(new FileOutputStream(outputFile), true, "UTF-8")) {
            System.setOut(output);
            System.setErr(output);
            // TLC unpacks the standard modules into java.io.tmpdir: each run gets its own.
            System.setProperty("java.io.tmpdir", tmpDir);
            // Each check runs in a thread of its own, so thread-locals die with it.
            int[] result = {150};
            Thread worker = new Thread(() -> {
                try {
                    if (!"sany".equals(tool) && !"tlc".equals(tool)) {
                        fault[0] = "unknown tool " + tool;
                        return;
                    }
                    if (shared) {
                        resetSanyStatics(loader);
                    }
                    result[0] = "sany".equals(tool) ? runSany(loader, args) : runTlc(loader, args);
                } catch (InvocationTargetException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof LinkageError) {
                        // A class or method the tool needs is missing or changed: the jar, not the spec.
                        fault[0] = describe(cause);
                    } else {
                        cause.printStackTrace(output);
                    }
                } catch (Throwable e) {
                    // Reflection failed (a class or method of another jar version) or the server erred.
                    fault[0] = describe(e);
                }
            }, "alias-check");
            worker.setContextClassLoader(loader);
            worker.start();
            Thread ticker = "tlc".equals(tool) && LIVENESS_TICK_MILLIS > 0 ? startLivenessTicker(worker, loader) : null;
            worker.join(limitMillis);
            if (ticker != null) {
                ticker.interrupt();
            }
            if (worker.isAlive()) {
                // Past its limit and the Python side has not stopped it: stop everything here.
                output.println("ALIAS: the check ran past its limit; the tool server halts");
                output.flush();
                Runtime.getRuntime().halt(124);
            }
            code = result[0];
            output.flush();
            if (!shared) {
                kept[0] = REMOTE == null || !REMOTE.release(loader);
            }
        } catch (Exception e) {
            fault[0] = "the tool server failed: " + describe(e);
            code = 150;
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
            System.setProperty("java.io.tmpdir", savedTmp);
            Thread.currentThread().setContextClassLoader(AliasToolServer.class.getClassLoader());
        }
        return code;
    }

    /**
     * Wake TLC's model checker early and often while {@code check} runs, so that it checks liveness on
     * the graph built so far sooner than its own schedule (3 s after exploring starts, then a minute
     * after each check: a compile-time constant of TLC). Each wake runs TLC's periodic work as its own
     * timer would: a progress line, and a liveness check when the behavior graph grew by TLC's
     * threshold (10%). A liveness violation is then reported soon after the graph first holds it, not
     * up to a minute later; which of several violations TLC reports first was already a matter of
     * timing, and a check that passes is unchanged but for the liveness checks it paid for.
     *
     * <p>Those are bounded: no wake for a spec without temporal properties; the first after TLC's own
     * first check ({@link #LIVENESS_TICK_MILLIS}), then each a quarter of the time elapsed after the
     * last, none while the checks so far took more than {@link #LIVENESS_TICK_SHARE} of the run, none
     * after one check that took more (a check costs more the larger the graph), none after a minute
     * (TLC's share of the time read from its {@code runtimeRatio} before each wake). A wake restarts
     * TLC's minute, so a ticker that woke it wakes it once more when TLC's own second check was due:
     * from then on TLC's schedule is its own again. Reached by reflection
     * ({@code tlc2.TLCGlobals.mainChecker}, whose monitor TLC's loop waits on, and its fields); a jar
     * without them keeps TLC's own schedule.
     */
    private static Thread startLivenessTicker(Thread check, ClassLoader loader) {
        Thread ticker = new Thread(() -> {
            long started = System.nanoTime();
            Object checker = null;
            boolean woke = false;
            try {
                Field mainChecker = Class.forName("tlc2.TLCGlobals", false, loader).getField("mainChecker");
                Field ratio = null;
                double seenRatio = 0.0;
                double spentMillis = 0.0;  // the liveness checks run so far, as TLC's ratio tells them
                long pause = LIVENESS_TICK_MILLIS;
                while (check.isAlive()) {
                    Thread.sleep(pause);
                    long elapsed = (System.nanoTime() - started) / 1_000_000L;
                    pause = Math.max(LIVENESS_TICK_MILLIS / 2, elapsed / 4);
                    if (elapsed + pause > 60_000L) {
                        break;
                    }
                    checker = mainChecker.get(null);
                    if (checker == null) {
                        continue;
                    }
                    if (ratio == null) {
                        if (!declaredField(checker.getClass(), "checkLiveness").getBoolean(checker)) {
                            return;  // no temporal property: nothing to check early
                        }
                        ratio = declaredField(checker.getClass(), "runtimeRatio");
                    }
                    // After each liveness check of a run's first minute TLC sets runtimeRatio to the
                    // check's time over the run's (to 0 when it skips one for taking too much), so a
                    // new positive value means a check ran since the last wake.
                    double now = ratio.getDouble(checker);
                    if (now != seenRatio && now > 0.0) {
                        spentMillis += now * elapsed;  // an upper bound: the check ended before this wake
                        if (now > LIVENESS_TICK_SHARE) {
                            break;  // the next check, on a larger graph, would take more still
                        }
                    }
                    seenRatio = now;
                    if (spentMillis <= LIVENESS_TICK_SHARE * elapsed) {  // else over budget for now
                        wake(checker);
                        woke = true;
                    }
                }
                if (woke) {  // TLC's own second check was due a minute after its first (3 s in)
                    long due = 63_000L - (System.nanoTime() - started) / 1_000_000L;
                    if (due > 0) {
                        Thread.sleep(due);
                    }
                    if (check.isAlive()) {
                        wake(checker);
                    }
                }
            } catch (InterruptedException e) {
                // the check ended
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                // another TLC: its own schedule stands
            }
        }, "alias-liveness-tick");
        ticker.setDaemon(true);
        ticker.start();
        return ticker;
    }

    /** Run TLC's periodic work now: its loop waits on the checker's monitor between rounds. */
    private static void wake(Object checker) {
        synchronized (checker) {
            checker.notifyAll();
        }
    }

    /** The field {@code name} declared by {@code type} or a superclass, made accessible. */
    private static Field declaredField(Class<?> type, String name) throws NoSuchFieldException {
        for (Class<?> at = type; at != null; at = at.getSuperclass()) {
            try {
                Field field = at.getDeclaredField(name);
                field.setAccessible(true);
                return field;
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(name);
    }

    /** The loader SANY requests share, made on first use with the standard modules' folder fixed. */
    private static CheckLoader sharedSanyLoader(JarImage jar) throws Exception {
        if (sanyLoader == null) {
            CheckLoader loader = new CheckLoader(jar);
            File modules = new File("sany-modules").getAbsoluteFile();
            if (!modules.isDirectory() && !modules.mkdirs()) {
                throw new IOException("cannot create " + modules);
            }
            String savedTmp = System.getProperty("java.io.tmpdir");
            System.setProperty("java.io.tmpdir", modules.getPath());
            try {
                // FilenameToStream.TMPDIR is read from java.io.tmpdir once, when the class initialises.
                Class.forName("util.FilenameToStream", true, loader);
            } finally {
                System.setProperty("java.io.tmpdir", savedTmp);
            }
            sanyLoader = loader;
        }
        return sanyLoader;
    }

    /** Put back the statics a SANY run leaves set, as a fresh loader has them (see the class docs). */
    private static void resetSanyStatics(ClassLoader loader) throws Exception {
        Class<?> io = Class.forName("util.ToolIO", true, loader);
        io.getField("out").set(null, System.out);
        io.getField("err").set(null, System.err);
        io.getMethod("reset").invoke(null);
        Field depth = Class.forName("tla2sany.parser.TLAplusParserTokenManager", true, loader)
                .getDeclaredField("bracketCount");
        depth.setAccessible(true);
        depth.setInt(null, 0);
    }

    /** What {@code tlc2.TLC.main} does, without {@code System.exit}. */
    private static int runTlc(ClassLoader loader, String[] args) throws Exception {
        Class<?> tlcClass = Class.forName("tlc2.TLC", true, loader);
        Object tlc = tlcClass.getConstructor().newInstance();
        boolean ok = (Boolean) tlcClass.getMethod("handleParameters", String[].class).invoke(tlc, (Object) args);
        if (!ok) {
            return 1;
        }
        String mainFile = (String) tlcClass.getMethod("getMainFile").invoke(tlc);
        Object resolver = newResolver(loader, parentDir(mainFile));
        Class<?> resolverType = Class.forName("util.FilenameToStream", true, loader);
        tlcClass.getMethod("setResolver", resolverType).invoke(tlc, resolver);
        int errorCode = (Integer) tlcClass.getMethod("process").invoke(tlc);
        try {
            Class<?> exitStatus = Class.forName("tlc2.output.EC$ExitStatus", true, loader);
            return (Integer) exitStatus.getMethod("errorConstantToExitStatus", int.class).invoke(null, errorCode);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            return errorCode;
        }
    }

    /** What {@code tla2sany.SANY.main} does for one file, without {@code System.exit}. */
    private static int runSany(ClassLoader loader, String[] args) throws Exception {
        String file = args[args.length - 1];
        Object resolver = newResolver(loader, parentDir(file));
        Class<?> resolverType = Class.forName("util.FilenameToStream", true, loader);
        Class<?> specClass = Class.forName("tla2sany.modanalyzer.SpecObj", true, loader);
        Constructor<?> newSpec = specClass.getConstructor(String.class, resolverType);
        Object spec = newSpec.newInstance(file, resolver);
        Class<?> sany = Class.forName("tla2sany.drivers.SANY", true, loader);
        Method frontEnd = sany.getMethod("frontEndMain", specClass, String.class, PrintStream.class);
        try {
            return (Integer) frontEnd.invoke(null, spec, file, System.out);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof LinkageError) {
                throw e;  // the jar cannot run SANY: a fault, reported by the caller
            }
            // FrontEndException: SANY prints it and exits 1.
            System.out.println(e.getCause());
            return 1;
        }
    }

    private static Object newResolver(ClassLoader loader, String dir) throws Exception {
        Class<?> simple = Class.forName("util.SimpleFilenameToStream", true, loader);
        if (dir == null || dir.isEmpty()) {
            return simple.getConstructor().newInstance();
        }
        return simple.getConstructor(String.class).newInstance(dir);
    }

    private static String parentDir(String path) {
        File parent = new File(path).getAbsoluteFile().getParentFile();
        return parent == null ? null : parent.getPath() + File.separator;
    }

    /** tla2tools.jar as read once: its class files' bytes, and a loader that finds its resources. */
    private static final class JarImage {
        final Map<String, byte[]> classes = new HashMap<>();
        final ProtectionDomain domain;
        /** Only ever asked for resources (never for classes), so it holds no TLC state. */
        URLClassLoader resources;
        private final URL url;

        JarImage(File file) throws IOException {
            url = file.toURI().toURL();
            domain = new ProtectionDomain(new CodeSource(url, (Certificate[]) null), null);
            resources = new URLClassLoader(new URL[] {url}, null);
            try (ZipFile zip = new ZipFile(file)) {
                Enumeration<? extends ZipEntry> entries = zip.entries();
                while (entries.hasMoreElements()) {
                    ZipEntry entry = entries.nextElement();
                    String name = entry.getName();
                    // module-info and package-info name no class a check loads.
                    if (!entry.isDirectory() && name.endsWith(".class") && !name.contains("-")) {
                        try (InputStream in = zip.getInputStream(entry)) {
                            classes.put(name.substring(0, name.length() - 6).replace('/', '.'), in.readAllBytes());
                        }
                    }
                }
            }
        }

        /** Class files under {@code folder} (by package path) replace the jar's classes of the same name. */
        void overlay(File folder) throws IOException {
            // An overlay class's resource is its own file: TLC prints the file each operator override
            // (tlc2.overrides) was loaded from, which the jar alone lacks for a class of ours.
            URLClassLoader jarOnly = resources;
            resources = new URLClassLoader(new URL[] {folder.toURI().toURL(), url}, null);
            jarOnly.close();
            java.nio.file.Path root = folder.toPath();
            try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(root)) {
                for (java.nio.file.Path file : (Iterable<java.nio.file.Path>) files::iterator) {
                    String name = root.relativize(file).toString().replace(File.separatorChar, '/');
                    if (name.endsWith(".class")) {
                        classes.put(name.substring(0, name.length() - 6).replace('/', '.'),
                                    java.nio.file.Files.readAllBytes(file));
                    }
                }
            }
        }

        /**
         * Make SANY's one call of {@code pcal.Validator.validate(InputStream)} (in
         * {@code tla2sany.modanalyzer.SpecObj}) call the overrides' {@code alias.PlusCalCheck.validate},
         * which answers the same without copying a module that has no PlusCal (see that class). Nothing
         * changes where the overrides lack that class or SpecObj has not exactly one such call. Whether
         * the call was redirected.
         */
        boolean redirectPlusCalCheck() {
            byte[] specObj = classes.get("tla2sany.modanalyzer.SpecObj");
            if (specObj == null || !classes.containsKey("alias.PlusCalCheck")) {
                return false;
            }
            byte[] patched = ClassPatch.redirectStaticCall(specObj, "pcal/Validator", "validate",
                    "(Ljava/io/InputStream;)Lpcal/Validator$ValidationResult;", "alias/PlusCalCheck");
            if (patched == null) {
                return false;
            }
            classes.put("tla2sany.modanalyzer.SpecObj", patched);
            return true;
        }
    }

    /** The one edit the server makes to a jar class: which class a static method call goes to. */
    static final class ClassPatch {
        private ClassPatch() {}

        /**
         * {@code classFile} with its calls of {@code owner.name descriptor} made to {@code newOwner} (a
         * class with a static method of the same name and descriptor), or null where the class file has
         * not exactly one such method reference. The new owner's name and class entries are appended to
         * the constant pool and the reference pointed at them: nothing else in the file moves relative
         * to what refers to it (code refers to the pool by index, never by file offset).
         */
        static byte[] redirectStaticCall(byte[] classFile, String owner, String name, String descriptor,
                                         String newOwner) {
            try {
                java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(classFile);
                if (in.getInt() != 0xCAFEBABE) {
                    return null;
                }
                in.getInt(); // minor and major version
                int count = in.getShort() & 0xFFFF;
                int[] tags = new int[count];
                int[] offsets = new int[count];
                String[] texts = new String[count];
                for (int index = 1; index < count; index++) {
                    offsets[index] = in.position();
                    int tag = in.get() & 0xFF;
                    tags[index] = tag;
                    switch (tag) {
                        case 1: { // Utf8 (the names compared here are ASCII)
                            byte[] bytes = new byte[in.getShort() & 0xFFFF];
                            in.get(bytes);
                            texts[index] = new String(bytes, StandardCharsets.UTF_8);
                            break;
                        }
                        case 7: case 8: case 16: case 19: case 20: in.position(in.position() + 2); break;
                        case 15: in.position(in.position() + 3); break;
                        case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                            in.position(in.position() + 4); break;
                        case 5: case 6: in.position(in.position() + 8); index++; break; // two slots
                        default: return null; // a constant kind this reader does not know
                    }
                }
                int poolEnd = in.position();
                int found = -1;
                for (int index = 1; index < count; index++) {
                    if (tags[index] != 10) {
                        continue;
                    }
                    int classIndex = u2(classFile, offsets[index] + 1);
                    int natIndex = u2(classFile, offsets[index] + 3);
                    if (tags[classIndex] == 7 && tags[natIndex] == 12
                            && owner.equals(texts[u2(classFile, offsets[classIndex] + 1)])
                            && name.equals(texts[u2(classFile, offsets[natIndex] + 1)])
                            && descriptor.equals(texts[u2(classFile, offsets[natIndex] + 3)])) {
                        if (found != -1) {
                            return null;
                        }
                        found = index;
                    }
                }
                if (found == -1 || count + 2 > 0xFFFF) {
                    return null;
                }
                byte[] ownerName = newOwner.getBytes(StandardCharsets.UTF_8);
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(classFile.length + ownerName.length + 6);
                java.io.DataOutputStream data = new java.io.DataOutputStream(out);
                data.write(classFile, 0, 8);
                data.writeShort(count + 2);
                data.write(classFile, 10, poolEnd - 10);
                data.writeByte(1); // entry count: the new owner's name
                data.writeShort(ownerName.length);
                data.write(ownerName);
                data.writeByte(7); // entry count + 1: the class of that name
                data.writeShort(count);
                data.write(classFile, poolEnd, classFile.length - poolEnd);
                byte[] patched = out.toByteArray();
                int classIndexAt = offsets[found] + 1; // before the pool's end: unmoved
                patched[classIndexAt] = (byte) ((count + 1) >> 8);
                patched[classIndexAt + 1] = (byte) (count + 1);
                return patched;
            } catch (RuntimeException | IOException e) {
                return null; // a class file this reader cannot take: left as the jar has it
            }
        }

        private static int u2(byte[] bytes, int at) {
            return (bytes[at] & 0xFF) << 8 | bytes[at + 1] & 0xFF;
        }
    }

    /**
     * RMI's table of exported objects and its cache of remote methods by class, reached by reflection
     * (see the class docs): what keeps a TLC check's loader reachable after the check.
     */
    private static final class RemoteObjects {
        private final Map<?, ?> exported;
        private final Object exportedLock;
        private final Method implOf;
        private final Map<?, ?> methodsByClass;

        private RemoteObjects(Map<?, ?> exported, Object exportedLock, Method implOf, Map<?, ?> methodsByClass) {
            this.exported = exported;
            this.exportedLock = exportedLock;
            this.implOf = implOf;
            this.methodsByClass = methodsByClass;
        }

        /** The tables, or null where this JVM does not open them to the server. */
        static RemoteObjects open() {
            try {
                Class<?> table = Class.forName("sun.rmi.transport.ObjectTable");
                Field objTable = table.getDeclaredField("objTable");
                Field tableLock = table.getDeclaredField("tableLock");
                Method getImpl = Class.forName("sun.rmi.transport.Target").getDeclaredMethod("getImpl");
                Field cache = Class.forName("sun.rmi.server.UnicastServerRef").getDeclaredField("hashToMethod_Maps");
                Field internal = Class.forName("sun.rmi.server.WeakClassHashMap").getDeclaredField("internalMap");
                for (java.lang.reflect.AccessibleObject member
                        : new java.lang.reflect.AccessibleObject[] {objTable, tableLock, getImpl, cache, internal}) {
                    member.setAccessible(true);
                }
                return new RemoteObjects((Map<?, ?>) objTable.get(null), tableLock.get(null), getImpl,
                                         (Map<?, ?>) internal.get(cache.get(null)));
            } catch (Throwable e) {  // not opened (InaccessibleObjectException), or another JDK's internals
                return null;
            }
        }

        /** Unexport the objects whose class {@code loader} defined and forget their methods; false if
         * that failed (the loader may stay reachable). */
        boolean release(ClassLoader loader) {
            try {
                java.util.List<java.rmi.Remote> owned = new java.util.ArrayList<>();
                synchronized (exportedLock) {
                    for (Object target : exported.values()) {
                        Object impl = implOf.invoke(target);
                        if (impl != null && impl.getClass().getClassLoader() == loader) {
                            owned.add((java.rmi.Remote) impl);
                        }
                    }
                }
                for (java.rmi.Remote impl : owned) {
                    java.rmi.server.UnicastRemoteObject.unexportObject(impl, true);
                }
                // WeakClassHashMap reads its map under the map's own lock.
                synchronized (methodsByClass) {
                    methodsByClass.keySet().removeIf(key -> ((Class<?>) key).getClassLoader() == loader);
                }
                return true;
            } catch (Throwable e) {
                return false;
            }
        }
    }

    /** A fresh class loader per check that defines tla2tools.jar's classes from the jar's image. */
    private static final class CheckLoader extends ClassLoader {
        private final JarImage jar;

        CheckLoader(JarImage jar) {
            super("alias-check", ClassLoader.getPlatformClassLoader());
            this.jar = jar;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] bytes = jar.classes.get(name);
            if (bytes == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, bytes, 0, bytes.length, jar.domain);
        }

        @Override
        protected URL findResource(String name) {
            return jar.resources.findResource(name);
        }

        @Override
        protected Enumeration<URL> findResources(String name) throws IOException {
            return jar.resources.findResources(name);
        }
    }
}
