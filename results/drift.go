package results

// DefaultEquivalence is the equivalence margin (a fraction): the
// scenario's default (±2 %, about the noise of a good load-test setup),
// and the margin of runs that stored none. This is its one home: the
// compiler resolves a scenario without a margin to it.
const DefaultEquivalence = 0.02
