package calc

import "example.com/calc/internal/format"

func Show(n int) string { return format.Count(n) }
