package sim

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// ParseSeed reads a seed: a whole number from 0 to 2^64 − 1, in decimal
// (also with an exponent or a zero fraction: "1e9", "12.0").
// Its error quotes the text (cut to clipRunes characters) and gives that
// range: the number is negative, too large, not a whole number, or longer
// than maxSeedText characters (a number of that length is read no further).
func ParseSeed(text string) (uint64, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, fmt.Errorf("seed is empty; want %s", SeedRange)
	}
	if len(text) > maxSeedText {
		return 0, fmt.Errorf("%q is %d characters long; want %s, in at most %d characters", Clip(text), len(text), SeedRange, maxSeedText)
	}
	v, err := strconv.ParseUint(text, 10, 64)
	if err == nil {
		return v, nil
	}
	// Not plain digits within range: read it exactly as a decimal number
	// (negative, too large, "1e9", "12.0") to say what is wrong, if anything.
	problem := "is not a whole number"
	if r, ok := decimalRat(text); ok {
		switch {
		case r.Sign() < 0:
			problem = "is negative"
		case !r.IsInt():
		case !r.Num().IsUint64():
			problem = "is too large"
		default:
			return r.Num().Uint64(), nil
		}
	}
	return 0, fmt.Errorf("%q %s; want %s", Clip(text), problem, SeedRange)
}

// maxSeedText is the longest seed text ParseSeed reads: far more than any
// way of writing a seed needs, and short enough to read at once.
const maxSeedText = 100

// decimalRat reads a number in decimal notation, with an optional fraction
// and exponent, exactly. A nonzero mantissa m of n characters is below
// 10^n and at least 10^-n, so an exponent e with e − n > 20 makes the
// number larger than any seed, and one with e + n < 0 makes it smaller than
// 1: those read as 2^64 and 1/2 (with m's sign), which is all a seed needs
// to know, without computing 10^e ("1e999999999" costs nothing).
func decimalRat(text string) (*big.Rat, bool) {
	mant, exp, hasExp := strings.Cut(strings.ToLower(text), "e")
	if strings.Trim(mant, "0123456789.+-") != "" { // no "1/2", "0x10", "Inf"
		return nil, false
	}
	m, ok := new(big.Rat).SetString(mant)
	if !ok {
		return nil, false
	}
	if !hasExp {
		return m, true
	}
	e, err := strconv.Atoi(strings.TrimPrefix(exp, "+"))
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, false
	}
	n := len(mant)
	sign := big.NewRat(int64(m.Sign()), 1)
	switch {
	case m.Sign() == 0:
		return m, true
	case e-n > 20:
		return sign.Mul(sign, new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1))), true
	case e+n < 0:
		return sign.Mul(sign, big.NewRat(1, 2)), true
	}
	return new(big.Rat).SetString(text)
}

// SeedRange is the seeds ParseSeed accepts (0 to 2^64 − 1), as its
// messages say it.
const SeedRange = "0 to 18446744073709551615"
