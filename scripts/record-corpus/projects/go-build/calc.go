package calc

import "strconv"

func Label(n int) string {
	var unused int
	return strconv.Itoaa(n)
}
