"""Reserved words and standard modules of TLA+ and PlusCal: the tables a renamer and a grader consult."""

from __future__ import annotations

from .specfiles import IDENTIFIER

__all__ = ["PLUSCAL_KEYWORDS", "PROOF_LIBRARY_MODULES", "STANDARD_MODULES", "STANDARD_NAMES", "STANDARD_OPERATORS",
           "TLA_KEYWORDS", "is_identifier"]

# --------------------------------------------------------------------------
# Reserved words and standard modules
# --------------------------------------------------------------------------

#: Every reserved word of TLA+ (including the proof language).  A renamer must
#: never rename these nor produce them.  ``WF_``/``SF_`` are prefixes: a name
#: starting with them does not lex as one identifier (see :func:`is_identifier`).
TLA_KEYWORDS: frozenset[str] = frozenset(
    {
        "ASSUME", "ASSUMPTION", "AXIOM", "BOOLEAN", "CASE", "CHOOSE",
        "CONSTANT", "CONSTANTS", "DOMAIN", "ELSE", "ENABLED", "EXCEPT",
        "EXTENDS", "FALSE", "IF", "IN", "INSTANCE", "LAMBDA", "LET", "LOCAL",
        "MODULE", "OTHER", "RECURSIVE", "SF_", "STRING", "SUBSET", "THEN",
        "THEOREM", "TRUE", "UNCHANGED", "UNION", "VARIABLE", "VARIABLES",
        "WF_", "WITH",
        # proof language
        "ACTION", "BY", "COROLLARY", "DEF", "DEFINE", "DEFS", "HAVE", "HIDE",
        "LEMMA", "NEW", "OBVIOUS", "OMITTED", "ONLY", "PICK", "PROOF",
        "PROPOSITION", "PROVE", "QED", "STATE", "SUFFICES", "TAKE",
        "TEMPORAL", "USE", "WITNESS",
    }
)

#: Reserved words of PlusCal (both syntaxes) plus ``self``, which the
#: translator defines.  Labels and variables of an algorithm must avoid them.
PLUSCAL_KEYWORDS: frozenset[str] = frozenset(
    {
        "algorithm", "assert", "await", "begin", "call", "define", "do",
        "either", "else", "elsif", "end", "fair", "goto", "if", "macro", "or",
        "print", "procedure", "process", "return", "self", "skip", "then",
        "variable", "variables", "when", "while", "with",
    }
)

_NATURALS = frozenset(
    {"Nat", "+", "-", "*", "^", "<", ">", "\\leq", "\\geq", "<=", ">=", "=<",
     "%", "\\div", ".."}
)
_INTEGERS = _NATURALS | {"Int", "-."}
_REALS = _INTEGERS | {"Real", "/", "Infinity"}
_SEQUENCES = frozenset(
    {"Seq", "Len", "\\o", "\\circ", "Append", "Head", "Tail", "SubSeq",
     "SelectSeq"}
)
_FINITE_SETS = frozenset({"IsFiniteSet", "Cardinality"})
_BAGS = frozenset(
    {"IsABag", "BagToSet", "SetToBag", "BagIn", "EmptyBag", "(+)", "\\oplus",
     "(-)", "\\ominus", "BagUnion", "\\sqsubseteq", "SubBag", "BagOfAll",
     "BagCardinality", "CopiesIn"}
)
_TLC = frozenset(
    {"Print", "PrintT", "Assert", "JavaTime", "TLCGet", "TLCSet", ":>", "@@",
     "Permutations", "SortSeq", "RandomElement", "Any", "ToString", "TLCEval"}
)
_FOLDS = frozenset({"MapThenFoldSet"})
_FUNCTIONS = frozenset(
    {"Restrict", "RestrictDomain", "RestrictValues", "IsRestriction", "Range",
     "Inverse", "AntiFunction", "IsInjective", "IsSurjective", "IsBijection",
     "Injection", "Surjection", "Bijection", "ExistsInjection",
     "ExistsSurjection", "ExistsBijection", "FoldFunction",
     "FoldFunctionOnSet"}
)
_FINITE_SETS_EXT = frozenset(
    {"FoldSet", "Sum", "Product", "ReduceSet", "FlattenSet", "Quantify",
     "kSubset", "Max", "Min", "Choices", "ChooseUnique", "SymDiff",
     "MapThenSumSet"}
)
# SequencesExt EXTENDS (re-exports) Sequences, Naturals, FiniteSets,
# FiniteSetsExt, Folds, Functions, Bags and TLC.
_SEQUENCES_EXT = (
    frozenset(
        {"ToSet", "ToBag", "SetToSeq", "SetToSeqs", "SetToSortSeq",
         "SetToAllKPermutations", "TupleOf", "SeqOf", "BoundedSeq", "Contains",
         "IsSorted", "Reverse", "Remove", "ReplaceAll", "SelectInSeq",
         "SelectInSubSeq", "SelectLastInSeq", "SelectLastInSubSeq", "InsertAt",
         "ReplaceAt", "RemoveAt", "RemoveFirst", "RemoveFirstMatch", "Cons",
         "Snoc", "Front", "Last", "IsPrefix", "IsStrictPrefix", "IsSuffix",
         "IsStrictSuffix", "Prefixes", "CommonPrefixes", "LongestCommonPrefix",
         "Suffixes", "SeqMod", "FoldSeq", "FoldLeft", "FoldRight",
         "FoldLeftDomain", "FoldRightDomain", "FlattenSeq", "Zip",
         "Interleave", "SubSeqs", "AllSubSeqs", "IndexFirstSubSeq",
         "ReplaceSubSeqAt", "ReplaceFirstSubSeq", "ReplaceAllSubSeqs"}
    )
    | _SEQUENCES | _NATURALS | _FINITE_SETS | _FINITE_SETS_EXT | _FOLDS
    | _FUNCTIONS | _BAGS | _TLC
)
_TLAPS = frozenset(
    {"SMT", "SMTT", "CVC3", "CVC3T", "CVC4", "CVC4T", "Yices", "YicesT",
     "veriT", "veriTT", "Z3", "Z3T", "Spass", "SpassT", "LS4", "LS4T", "PTL",
     "Zenon", "ZenonT", "SlowZenon", "SlowerZenon", "VerySlowZenon",
     "SlowestZenon", "Isa", "IsaT", "IsaM", "IsaMT", "Auto", "Force", "Blast",
     "SimpAll", "AutoBlast", "SetExtensionality", "NoSetContainsEverything",
     "IsaWithSetExtensionality", "ExpandENABLED", "ExpandCdot", "AutoUSE",
     "Lambdify", "ENABLEDaxioms", "ENABLEDrewrites", "ENABLEDrules",
     "LevelComparison", "SimpleArithmetic", "Zipper", "ZipperT", "SlowAuto",
     "SlowerAuto", "SlowestAuto", "SlowForce", "SlowerForce", "SlowestForce",
     "SimplifyAndSolve", "SlowSimplifyAndSolve", "SlowerSimplifyAndSolve",
     "SlowestSimplifyAndSolve", "Simplification", "SlowSimplification",
     "SlowerSimplification", "SlowestSimplification", "SlowBlast",
     "SlowerBlast", "SlowestBlast", "AllProvers", "AllProversT", "AllSMT",
     "AllSMTT", "AllIsa", "AllIsaT", "AllZenon", "AllZenonT",
     "PropositionalTemporalLogic", "EnabledWrapper", "CdotWrapper", "Trivial"}
)

#: Names each standard or community module makes visible to a module that
#: EXTENDS it (so a module that re-exports others lists their names too).
#: Symbolic operators are spelled as in the module source (``\\o``, ``:>``).
#: The TLAPS theorem libraries (see :data:`PROOF_LIBRARY_MODULES`) are listed
#: only in part: they hold hundreds of theorem names.
STANDARD_OPERATORS: dict[str, frozenset[str]] = {
    # the standard modules of tla2tools.jar
    "Naturals": _NATURALS,
    "Integers": _INTEGERS,
    "Reals": _REALS,
    "Sequences": _SEQUENCES,
    "FiniteSets": _FINITE_SETS,
    "Bags": _BAGS,
    "TLC": _TLC,
    "TLCExt": frozenset(
        {"AssertEq", "AssertError", "PickSuccessor", "TLCModelValue",
         "TLCDefer", "TLCNoOp", "TLCCache", "TLCGetOrDefault", "TLCGetAndSet",
         "TLCFP", "Trace", "CounterExample", "ToTrace"}
    ),
    "Randomization": frozenset(
        {"RandomSubset", "RandomSetOfSubsets", "RandomSubsetSet",
         "TestRandomSetOfSubsets", "TestRandomSubsetSet"}
    ),
    "Json": frozenset(
        {"ToJson", "ToJsonArray", "ToJsonObject", "JsonSerialize",
         "JsonDeserialize", "ndJsonSerialize", "ndJsonDeserialize"}
    ),
    # CommunityModules
    "Folds": _FOLDS,
    "Functions": _FUNCTIONS,
    "FiniteSetsExt": _FINITE_SETS_EXT,
    "SequencesExt": _SEQUENCES_EXT,
    "BagsExt": frozenset(
        {"BagAdd", "BagRemove", "BagRemoveAll", "FoldBag", "SumBag",
         "ProductBag"}
    ),
    "Bitwise": frozenset({"&", "|", "^^", "shiftR"}),
    "IOUtils": frozenset(
        {"IOSerialize", "IODeserialize", "IOExec", "IOEnvExec",
         "IOExecTemplate", "IOEnvExecTemplate", "IOEnv", "atoi", "zeroPadN",
         "Serialize", "Deserialize"}
    ),
    "CSV": frozenset({"CSVWrite", "CSVRead", "CSVRecords"}),
    "Relation": frozenset(
        {"IsReflexive", "IsIrreflexive", "IsSymmetric", "IsAsymmetric",
         "IsTransitive", "TransitiveClosure", "ReflexiveTransitiveClosure"}
    ),
    "Graphs": frozenset(
        {"IsDirectedGraph", "DirectedSubgraph", "Transpose", "Path",
         "SimplePath", "AreConnectedIn", "ConnectionsIn",
         "IsStronglyConnected", "Successors", "Predecessors"}
    ),
    "UndirectedGraphs": frozenset(
        {"IsUndirectedGraph", "IsLoopFreeUndirectedGraph",
         "UndirectedSubgraph", "Path", "SimplePath", "ConnectedComponents",
         "AreConnectedIn", "IsStronglyConnected"}
    ),
    "Combinatorics": frozenset({"factorial", "choose"}),
    "DyadicRationals": frozenset(
        {"Zero", "One", "IsDyadicRational", "Add", "Half", "PrettyPrint"}
    ),
    "VectorClocks": frozenset({"IsCausalOrder", "CausalOrder"}),
    # Apalache
    "Apalache": frozenset(
        {":=", "Gen", "Guess", "Skolem", "Expand", "ConstCardinality", "MkSeq",
         "FunAsSeq", "ApaFoldSet", "ApaFoldSeqLeft", "Repeat", "SetAsFun"}
    ),
    "Variants": frozenset(
        {"Variant", "VariantTag", "VariantGetUnsafe", "VariantGetOrElse",
         "VariantFilter"}
    ),
    # TLAPS
    "TLAPS": _TLAPS,
    "NaturalsInduction": frozenset(
        {"NatInductiveDefHypothesis", "NatInductiveDefConclusion",
         "NatInductiveDef", "FiniteNatInductiveDefHypothesis",
         "FiniteNatInductiveDefConclusion", "FiniteNatInductiveDef",
         "NatInduction", "DownwardNatInduction", "GeneralNatInduction",
         "SmallestNatural", "RecursiveFcnOfNat", "NatInductiveDefType",
         "FiniteNatInductiveDefType", "RecursiveFcnOfNatType",
         "RecursiveFcnOfNatUnique", "NatInductiveUnique",
         "FiniteNatInductiveUnique"}
    ),
    "WellFoundedInduction": frozenset(
        {"IsWellFoundedOn", "SetLessThan", "WFInduction", "WFDefOn",
         "OpDefinesFcn", "WFInductiveDefines", "WFInductiveUnique",
         "TransitiveClosureOn", "ReflexiveTransitiveClosureOn",
         "IsTransitivelyClosedOn", "OpToRel", "PreImage", "NatLessThan",
         "WFInductiveDef"}
    ),
    "FiniteSetTheorems": frozenset(
        {"FS_Singleton", "FS_EmptySet", "FS_Subset", "FS_Union",
         "FS_Intersection", "FS_Difference", "FS_Interval", "FS_CardinalityType",
         "FS_AddElement", "FS_RemoveElement", "FS_Induction", "FS_Product",
         "FS_SUBSET", "FS_Image", "FS_MajorityIntersection", "FiniteSubsetsOf",
         "StrictSubsetOrdering", "FS_FiniteSubsetsOfFinite",
         "FS_StrictSubsetOrderingWellFounded", "FS_WFInduction"}
    ),
    "SequenceTheorems": frozenset(
        {"ElementOfSeq", "EmptySeq", "LenProperties", "LenAxiom",
         "AppendProperties", "HeadTailProperties", "SubSeqProperties",
         "ConcatProperties", "ConcatEmptySeq", "SeqDef", "AppendIsConcat",
         "TailIsSubSeq", "SelectSeqProperties", "SeqInduction"}
    ),
    "FunctionTheorems": frozenset(
        {"Fun_RangeProperties", "Fun_IsInj", "Fun_IsSurj", "Fun_IsBij",
         "Fun_InjectionProperties", "Fun_SurjectionProperties",
         "Fun_BijectionProperties"}
    ),
}

#: Modules that ship with TLC/SANY, the CommunityModules, Apalache or TLAPS:
#: their names must never be renamed.
STANDARD_MODULES: frozenset[str] = frozenset(STANDARD_OPERATORS)

#: TLAPS theorem libraries whose :data:`STANDARD_OPERATORS` entry is partial.
PROOF_LIBRARY_MODULES: frozenset[str] = frozenset(
    {"NaturalsInduction", "WellFoundedInduction", "FiniteSetTheorems",
     "SequenceTheorems", "FunctionTheorems"}
)

#: The union of :data:`STANDARD_OPERATORS`.
STANDARD_NAMES: frozenset[str] = frozenset().union(*STANDARD_OPERATORS.values())



def is_identifier(name: str) -> bool:
    """Whether ``name`` lexes as one ordinary TLA+ identifier.

    That rules out reserved words, names without a letter, and names starting
    with ``WF_`` or ``SF_`` (which lex as the fairness prefix).
    """
    return (
        bool(IDENTIFIER.fullmatch(name))
        and name not in TLA_KEYWORDS
        and not name.startswith(("WF_", "SF_"))
    )
