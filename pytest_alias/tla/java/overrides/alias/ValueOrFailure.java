package alias;

import tla2sany.semantic.ExprOrOpArgNode;
import tlc2.overrides.Evaluation;
import tlc2.tool.TLCState;
import tlc2.tool.coverage.CostModel;
import tlc2.tool.impl.Tool;
import tlc2.util.Context;
import tlc2.value.impl.StringValue;
import tlc2.value.impl.Value;

/**
 * The Java definition of {@code AliasProbe!AliasValueOrFailure(e)} (ALIAS's library module): the value
 * of {@code e}, or the string {@link #FAILED} where TLC cannot evaluate it.
 *
 * <p>The ASSUME probe (``grading/assume_probe.py``) prints the value of many constant formulas of an
 * output in one TLC run. TLC stops at the first assumption whose evaluation fails, so each failure used
 * to cost the probe another run; through this operator the failure becomes a value and the run goes on
 * to the next formula. The argument is evaluated exactly as TLC evaluates it anywhere else (TLC hands
 * the operator its unevaluated argument: {@link Evaluation}); only TLC's run-time exceptions are caught
 * (an evaluation error, a non-enumerable set, an assertion), never a JVM error such as a stack overflow.
 * Where this class is not loaded (a check outside the tool server), the module's own TLA+ definition,
 * {@code e} itself, applies and the run stops at the failure as before.
 */
public final class ValueOrFailure {
    /** What the operator gives for a formula TLC could not evaluate. */
    public static final String FAILED = "AliasEvaluationFailed";

    private ValueOrFailure() {
    }

    @Evaluation(definition = "AliasValueOrFailure", module = "AliasProbe", minLevel = 0)
    public static Value valueOrFailure(Tool tool, ExprOrOpArgNode[] args, Context context, TLCState s0,
                                       TLCState s1, int control, CostModel cost) {
        try {
            return (Value) tool.eval(args[0], context, s0, s1, control, cost);
        } catch (RuntimeException failure) {
            return new StringValue(FAILED);
        }
    }
}
