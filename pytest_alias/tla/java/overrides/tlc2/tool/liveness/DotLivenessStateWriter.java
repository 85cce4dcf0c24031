package tlc2.tool.liveness;

import tlc2.util.IStateWriter;

/**
 * Stands in for TLC 2.15's writer of the liveness graph, which TLC starts whenever it dumps the state
 * graph in dot format ({@code -dump dot}) of a spec with temporal properties to check.
 *
 * <p>ALIAS reads the state graph only, never {@code *_liveness.dot}; writing it took most of a small
 * check's time (a 159-state check with two temporal properties: 0.30 s with it, 0.19 s without any
 * dump) and its size was not held to the dump budget. This class writes nothing: every call is
 * {@link NoopLivenessStateWriter}'s. The liveness checking itself only ever hands states to the
 * writer, so verdicts and printed output do not change.
 *
 * <p>The tool server defines it in place of the jar's class only for a jar whose original class it
 * was checked against (see {@code pytest_alias.tla.server_classes}).
 */
public class DotLivenessStateWriter extends NoopLivenessStateWriter {
    /** The signature TLC's {@code LiveCheck} calls; the state-graph writer it is given is not used. */
    public DotLivenessStateWriter(IStateWriter stateWriter) {
        super();
    }
}
