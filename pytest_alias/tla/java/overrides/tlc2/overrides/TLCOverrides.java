package tlc2.overrides;

/**
 * The operator definitions in Java that TLC loads for a spec (TLC looks this class up by name for
 * every spec and uses a definition only where the spec has its module): ALIAS's
 * {@code AliasProbe!AliasValueOrFailure}, see {@link alias.ValueOrFailure}.
 */
public final class TLCOverrides implements ITLCOverrides {
    @Override
    @SuppressWarnings("rawtypes")
    public Class[] get() {
        return new Class[] {alias.ValueOrFailure.class};
    }
}
