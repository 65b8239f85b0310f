// Package explain is the teaching core of the playground: it explains one
// decision with its real numbers ([Explain], [Replay]), points at the
// limiter source lines that took it ([SourceOf]), runs the guided lessons
// ([Lessons]), asks predict-then-reveal questions ([NewQuiz]) and holds the
// interview drill cards ([Cards]).
//
// Every number it shows comes from package limiter itself: a decision's
// values are read from the strategy's own [limiter.State] views before and
// after the request and from its [limiter.Decision]; this package never
// decides a request a second way. The formulas it prints are the
// algorithm's, filled in with those values.
//
// It is plain Go (no go-app, no syscall/js), so it runs and is tested both
// natively and under GOOS=js GOARCH=wasm. What it returns is plain data
// (labels, formulas, values, line ranges) for the UI to render.
package explain
