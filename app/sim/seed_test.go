package sim

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestParseSeed(t *testing.T) {
	if want := "0 to " + strconv.FormatUint(math.MaxUint64, 10); SeedRange != want {
		t.Errorf("SeedRange = %q, want %q", SeedRange, want)
	}
	for _, c := range []struct {
		text string
		want uint64
		err  string
	}{
		{"0", 0, ""},
		{"18446744073709551615", math.MaxUint64, ""},
		{"-1", 0, `"-1" is negative; want 0 to 18446744073709551615`},
		{"-99999999999999999999", 0, `"-99999999999999999999" is negative; want 0 to 18446744073709551615`},
		{"18446744073709551616", 0, `"18446744073709551616" is too large; want 0 to 18446744073709551615`},
		{"1.5", 0, `"1.5" is not a whole number; want 0 to 18446744073709551615`},
		{"12x", 0, `"12x" is not a whole number; want 0 to 18446744073709551615`},
		{"", 0, `seed is empty; want 0 to 18446744073709551615`},
		{" 5 ", 5, ""},
		{"1e9", 1000000000, ""},
		{"12.0", 12, ""},
		{"1.8446744073709551615e19", math.MaxUint64, ""},
		{"1e20", 0, `"1e20" is too large; want 0 to 18446744073709551615`},
		{"-1e3", 0, `"-1e3" is negative; want 0 to 18446744073709551615`},
		{"1.5e0", 0, `"1.5e0" is not a whole number; want 0 to 18446744073709551615`},
		{"1e100", 0, `"1e100" is too large; want 0 to 18446744073709551615`},
		{"1e999999999", 0, `"1e999999999" is too large; want 0 to 18446744073709551615`},
		{"1e99999999999999999999", 0, `"1e99999999999999999999" is too large; want 0 to 18446744073709551615`},
		{"-1e100", 0, `"-1e100" is negative; want 0 to 18446744073709551615`},
		{"1e-999", 0, `"1e-999" is not a whole number; want 0 to 18446744073709551615`},
		{"0e999", 0, ""},
		{"1e", 0, `"1e" is not a whole number; want 0 to 18446744073709551615`},
		{"100000000000000000000000e-10", 10000000000000, ""},
		{"0.00000000000000000000000000000000000000000000000000001e60", 10000000, ""},
		{strings.Repeat("9", 300000), 0, `"` + strings.Repeat("9", 40) + `…" is 300000 characters long; want 0 to 18446744073709551615, in at most 100 characters`},
		{"1" + strings.Repeat("0", 99), 0, `"1000000000000000000000000000000000000000…" is too large; want 0 to 18446744073709551615`},
		{"4/2", 0, `"4/2" is not a whole number; want 0 to 18446744073709551615`},
		{"0x10", 0, `"0x10" is not a whole number; want 0 to 18446744073709551615`},
	} {
		got, err := ParseSeed(c.text)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if got != c.want || msg != c.err {
			t.Errorf("ParseSeed(%q) = %d, %q; want %d, %q", c.text, got, msg, c.want, c.err)
		}
	}
}
