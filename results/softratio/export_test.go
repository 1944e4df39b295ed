package softratio

// Synth and FiveRatios serve the external tests.
var Synth, FiveRatios = synth, fiveRatios
