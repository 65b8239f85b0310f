package units

import (
	"strconv"
)

// Plural is n and what, with an s unless n is 1: "1 lane", "3 lanes".
func Plural(n int, what string) string {
	s := strconv.Itoa(n) + " " + what
	if n != 1 {
		s += "s"
	}
	return s
}
