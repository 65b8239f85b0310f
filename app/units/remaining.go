package units

import (
	"strconv"
)

func Remaining(n int) string {
	if n == 1 {
		return "1 left"
	}
	return strconv.Itoa(n) + " left"
}
