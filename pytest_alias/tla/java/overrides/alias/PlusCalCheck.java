package alias;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import pcal.Validator;

/**
 * SANY's check that a module's PlusCal translation is current, skipped where a module has no PlusCal.
 *
 * <p>SANY (inside TLC too) runs {@link Validator#validate(InputStream)} on every module it reads, the
 * standard ones included. That first copies each line character by character with its tabs expanded
 * (time quadratic in a line's length: an 80 KB line took 1.5 s) and then looks for PlusCal options
 * ("PlusCal" tokens) and for an algorithm ("--algorithm" or "--fair" in a line). A module without any
 * of those three strings has no PlusCal: the validator then returns {@code NO_PLUSCAL_EXISTS}, about
 * which SANY prints nothing, and it changes no state SANY or TLC reads. This class answers that without
 * the copy and hands every other module to the validator unchanged. The tool server calls it in place
 * of the validator (it rewrites the one call in {@code tla2sany.modanalyzer.SpecObj}), only for a jar
 * whose classes it was read against (see {@code server_classes.REPLACED_CLASSES}).
 */
public final class PlusCalCheck {
    private static final byte[][] PLUSCAL_MARKS = {
        "PlusCal".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        "--algorithm".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        "--fair".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
    };

    private PlusCalCheck() {
    }

    /** What {@link Validator#validate(InputStream)} returns for {@code in}, read once. */
    public static Validator.ValidationResult validate(InputStream in) throws IOException {
        byte[] text = in.readAllBytes();
        for (byte[] mark : PLUSCAL_MARKS) {
            if (indexOf(text, mark) >= 0) {
                return Validator.validate(new ByteArrayInputStream(text));
            }
        }
        return Validator.ValidationResult.NO_PLUSCAL_EXISTS;
    }

    /** The first index of {@code mark} in {@code text}, or -1 (ASCII marks: UTF-8 bytes match as text does). */
    static int indexOf(byte[] text, byte[] mark) {
        outer:
        for (int i = 0; i + mark.length <= text.length; i++) {
            for (int j = 0; j < mark.length; j++) {
                if (text[i + j] != mark[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
