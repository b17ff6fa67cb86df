package temp

import "strings"

func CToF(c float64) float64 { return c*9/5 + 30 }

func Label(name string) string { return strings.Title(name) }

func Parse(s string) (int, error) {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n, nil
}
