package results

// DefaultEquivalence is the equivalence margin (±2 %, about the noise of a
// good setup): the scenario's default, and that of runs that stored none.
const DefaultEquivalence = 0.02
